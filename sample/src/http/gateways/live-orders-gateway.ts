import { hostname } from 'node:os';
import { ConnectedSocket, Gateway, OnConnect, Public, type RealtimeSocket } from 'keel';
import { ORDERS_CHANNEL } from '../../orders/order-service';

/**
 * The live list of new orders over a WebSocket, for clients that are not browsers: each socket
 * joins the channel `orders` and gets the same `order` events as the page's event stream
 * (`{"event":"order","data":{...},"id":"42"}`), stored on any replica. A socket has no resume: one
 * that reconnects gets what is new, and reads what it missed from the event stream (`Last-Event-ID`)
 * or the JSON API. Open to anyone, as the other lists are.
 */
@Public()
@Gateway('/orders/live/socket')
export class LiveOrdersGateway {
  // GET /orders/live/socket, upgraded: joined, then told which replica serves it
  @OnConnect()
  join(@ConnectedSocket() socket: RealtimeSocket) {
    socket.join(ORDERS_CHANNEL);
    // Named as the replica's log lines name it (`hostname`, `pid`): replicas come and go, and a
    // client that reports a problem can say which one it was on.
    socket.send('hello', { hostname: hostname(), pid: process.pid });
  }
}

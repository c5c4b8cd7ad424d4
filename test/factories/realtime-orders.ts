import {
  Broadcast,
  ConnectedSocket,
  Controller,
  Gateway,
  LastEventId,
  OnConnect,
  Param,
  Post,
  Sse,
  type RealtimeSocket,
} from 'keel';

/** A gateway whose sockets join the channel `orders` and are told `joined` with their channels. */
@Gateway('/ws/orders')
export class OrdersGateway {
  @OnConnect()
  hello(@ConnectedSocket() socket: RealtimeSocket) {
    socket.join('orders');
    socket.send('joined', socket.channels);
  }
}

/** `POST /orders/:n` publishes `order` `{ n }` on `orders`; `GET /orders/live` streams the channel. */
@Controller('orders')
export class OrdersController {
  constructor(private readonly broadcast: Broadcast) {}

  @Post(':n')
  async publish(@Param('n') n: string) {
    return { id: await this.broadcast.publish('orders', 'order', { n: Number(n) }) };
  }

  @Sse('live')
  live(@LastEventId() lastEventId?: string) {
    return this.broadcast.stream('orders', lastEventId);
  }
}

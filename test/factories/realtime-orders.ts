import { expect } from '@jest/globals';
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

/** The ids and `n`s of the `order` events in an event stream's text, in the order they came. */
export function eventsIn(text: string): { id: string; n: number }[] {
  return [...text.matchAll(/event: order\nid: (\d+)\ndata: (\{[^\n]*\})\n/g)].map(
    ([, id = '', data = '']) => ({
      id,
      n: (JSON.parse(data) as { n: number }).n,
    }),
  );
}

/** Publishes order `n` through `replica`'s {@link OrdersController}; resolves to the event's id. */
export async function publishOrder(replica: { readonly url: string }, n: number): Promise<string> {
  const res = await fetch(`${replica.url}/orders/${n}`, { method: 'POST' });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

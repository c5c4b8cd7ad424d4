import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Broadcast, Controller, Get, LastEventId, Public, Sse, type Context } from 'keel';
import { ORDERS_CHANNEL } from '../../orders/order-service';

// The page's script is a file of its own (no inline script: the page keeps to a strict
// Content-Security-Policy), served from here beside the page.
const SCRIPT = path.join(__dirname, '..', '..', '..', 'views', 'orders', 'live-orders.js');

/**
 * The live list of new orders: a page, its script, and the Server-Sent Events stream it reads, one
 * `order` event per order stored, on any replica (the channel `orders` of keel's `Broadcast`). A
 * browser that reconnects, to any replica, sends the id of the last event it saw (`Last-Event-ID`)
 * and gets every later one, none twice. Open to anyone, as the other lists are.
 */
@Public()
@Controller('orders/live')
export class LiveOrdersController {
  #script: string | undefined;

  constructor(private readonly broadcast: Broadcast) {}

  // GET /orders/live
  @Get('', { name: 'orders.live' })
  page(ctx: Context) {
    ctx.html(200, 'orders/live.html', {});
  }

  // GET /orders/live/events
  @Sse('events', { name: 'orders.live.events' })
  events(@LastEventId() lastEventId: string | undefined) {
    return this.broadcast.stream(ORDERS_CHANNEL, lastEventId);
  }

  // GET /orders/live/live-orders.js
  @Get('live-orders.js', { name: 'orders.live.script' })
  script(ctx: Context) {
    this.#script ??= readFileSync(SCRIPT, 'utf8');
    ctx.res.type('text/javascript').set('Cache-Control', 'no-cache').send(this.#script);
  }
}

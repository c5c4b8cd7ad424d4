import { ApiResource, Authenticated, Public, Query, RateLimit, UseFilters, type Context } from 'keel';
import { OrderNotFoundJson } from '../order-not-found-filters';
import { OrderChanges, OrderInput, OrderPageQuery } from '../../orders/order-input';
import { OrderService } from '../../orders/order-service';
import { OrderPageView, OrderView } from '../../orders/order-view';

/**
 * The orders as JSON: the same service as the HTML pages, without the forms. Reads are open;
 * writes need a token from `POST /api/tokens` (`Authorization: Bearer keel_...`), and share one
 * budget per client address (`api-writes`, set in `AppModule`). `input`, `patchInput` and
 * `output` give its OpenAPI document the bodies it binds and the answers it sends.
 */
@UseFilters(OrderNotFoundJson)
@Authenticated('token')
@ApiResource('api/orders', {
  input: OrderInput,
  patchInput: OrderChanges,
  output: { item: OrderView, list: OrderPageView },
})
export class OrderApiController {
  constructor(private readonly orders: OrderService) {}

  // GET /api/orders?page=2
  @Public()
  async index(@Query() query: OrderPageQuery) {
    const page = query.page ?? 1;
    const { orders, pageCount, total } = await this.orders.page(page);
    return { data: orders, page, pageCount, total };
  }

  // POST /api/orders
  @RateLimit('api-writes')
  async store(ctx: Context) {
    const input = await ctx.bind(OrderInput);
    if (!input.ok) throw input.error;
    const order = await this.orders.create(input.value, 'the JSON API');
    ctx.header('Location', ctx.urlFor('api.orders.show', { id: order.id }));
    ctx.json(201, order);
  }

  // GET /api/orders/:id
  @Public()
  show(ctx: Context) {
    return this.orders.get(ctx.param('id'));
  }

  // PUT /api/orders/:id replaces every field; PATCH changes those it sends.
  @RateLimit('api-writes')
  async update(ctx: Context) {
    const order = await this.orders.get(ctx.param('id'));
    const input = await ctx.bind(ctx.route?.method === 'PATCH' ? OrderChanges : OrderInput);
    if (!input.ok) throw input.error;
    return this.orders.update(order, input.value);
  }

  // DELETE /api/orders/:id
  @RateLimit('api-writes')
  async destroy(ctx: Context) {
    await this.orders.remove(ctx.param('id'));
    ctx.noContent();
  }
}

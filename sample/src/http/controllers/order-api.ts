import { ApiResource, Query, RateLimit, UseFilters, UseGuards, type Context } from 'keel';
import { ApiTokenGuard } from '../api-token-guard';
import { OrderNotFoundJson } from '../order-not-found-filters';
import { OrderInput } from '../../orders/order-input';
import { OrderService } from '../../orders/order-service';
import { OrderPageView, OrderView } from '../../orders/order-view';
import { pageNumber } from '../../orders/request-numbers';

/**
 * The orders as JSON: the same service as the HTML pages, without the forms. Reads are open;
 * writes need the API token, and share one budget per client address (`api-writes`, set in
 * `AppModule`). `input` and `output` give its OpenAPI document the body it binds and
 * the answers it sends.
 */
@UseGuards(ApiTokenGuard)
@UseFilters(OrderNotFoundJson)
@ApiResource('api/orders', { input: OrderInput, output: { item: OrderView, list: OrderPageView } })
export class OrderApiController {
  constructor(private readonly orders: OrderService) {}

  // GET /api/orders?page=2
  async index(@Query('page', '1') requested: string) {
    const page = pageNumber(requested);
    const { orders, pageCount, total } = await this.orders.page(page);
    return { data: orders, page, pageCount, total };
  }

  // POST /api/orders
  @RateLimit('api-writes')
  async store(ctx: Context) {
    const input = await ctx.bind(OrderInput);
    if (!input.ok) throw input.error;
    const order = await this.orders.create(input.value);
    ctx.header('Location', ctx.urlFor('api.orders.show', { id: order.id }));
    ctx.json(201, order);
  }

  // GET /api/orders/:id
  show(ctx: Context) {
    return this.orders.get(ctx.param('id'));
  }

  // PUT|PATCH /api/orders/:id
  @RateLimit('api-writes')
  async update(ctx: Context) {
    const order = await this.orders.get(ctx.param('id'));
    const input = await ctx.bind(OrderInput);
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

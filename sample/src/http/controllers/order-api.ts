import { ApiResource, type Context } from 'keel';
import { OrderInput } from '../../orders/order-input';
import { OrderService } from '../../orders/order-service';
import { requestedPage } from '../../orders/request-numbers';

/** The orders as JSON: the same service as the HTML pages, without the forms. */
@ApiResource('api/orders')
export class OrderApiController {
  constructor(private readonly orders: OrderService) {}

  // GET /api/orders?page=2
  async index(ctx: Context) {
    const page = requestedPage(ctx);
    const { orders, pageCount, total } = await this.orders.page(page);
    return { data: orders, page, pageCount, total };
  }

  // POST /api/orders
  async store(ctx: Context) {
    const input = await ctx.bind(OrderInput);
    if (!input.ok) throw input.error;
    const order = await this.orders.create(input.value);
    ctx.res.location(`/api/orders/${order.id}`);
    ctx.json(201, order);
  }

  // GET /api/orders/:id
  async show(ctx: Context) {
    return (await this.orders.find(ctx.param('id'))) ?? notFound(ctx);
  }

  // PUT|PATCH /api/orders/:id
  async update(ctx: Context) {
    const order = await this.orders.find(ctx.param('id'));
    if (!order) return notFound(ctx);
    const input = await ctx.bind(OrderInput);
    if (!input.ok) throw input.error;
    return this.orders.update(order, input.value);
  }

  // DELETE /api/orders/:id
  async destroy(ctx: Context) {
    if (!(await this.orders.remove(ctx.param('id')))) return notFound(ctx);
    ctx.res.status(204).end();
  }
}

function notFound(ctx: Context): undefined {
  ctx.error(404, `order ${ctx.param('id')} not found`);
  return undefined;
}

import { ApiResource, type Context } from 'keel';
import { OrderInput } from '../../orders/order-input';
import { OrderService } from '../../orders/order-service';
import { positiveInteger } from '../../orders/request-numbers';

/** The orders as JSON: the same service as the HTML pages, without the forms. */
@ApiResource('api/orders')
export class OrderApiController {
  constructor(private readonly orders: OrderService) {}

  // GET /api/orders?page=2
  async index(ctx: Context) {
    const page = positiveInteger(ctx.query('page', '1'));
    if (page === undefined) return ctx.error(400, 'page must be a whole number from 1');
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
    const id = positiveInteger(ctx.param('id'));
    const order = id === undefined ? null : await this.orders.find(id);
    return order ?? notFound(ctx);
  }

  // PUT|PATCH /api/orders/:id
  async update(ctx: Context) {
    const id = positiveInteger(ctx.param('id'));
    if (id === undefined || !(await this.orders.find(id))) return notFound(ctx);
    const input = await ctx.bind(OrderInput);
    if (!input.ok) throw input.error;
    return (await this.orders.update(id, input.value)) ?? notFound(ctx);
  }

  // DELETE /api/orders/:id
  async destroy(ctx: Context) {
    const id = positiveInteger(ctx.param('id'));
    if (id === undefined || !(await this.orders.remove(id))) return notFound(ctx);
    ctx.res.status(204).end();
  }
}

function notFound(ctx: Context): undefined {
  ctx.error(404, `order ${ctx.param('id')} not found`);
  return undefined;
}

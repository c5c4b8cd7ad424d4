import { Public, Resource, UseFilters, type BindResult, type Context } from 'keel';
import { LoginRedirect } from '../login-redirect';
import { OrderNotFoundPage } from '../order-not-found-filters';
import { OrderInput } from '../../orders/order-input';
import { OrderService } from '../../orders/order-service';
import { requestedPage } from '../../orders/request-numbers';

const FIELDS = ['customer', 'product', 'quantity'] as const;

type BindFailure = Extract<BindResult<OrderInput>, { ok: false }>;

/**
 * The orders as HTML pages: a paginated list and a page per order, open to anyone; forms to create,
 * edit and delete, for the logged-in operator (the session login: `AppModule`'s default).
 */
@UseFilters(OrderNotFoundPage, LoginRedirect)
@Resource('orders')
export class OrderController {
  constructor(private readonly orders: OrderService) {}

  // GET /orders?page=2
  @Public()
  async index(ctx: Context) {
    const page = requestedPage(ctx);
    ctx.html(200, 'orders/index.html', await this.orders.page(page));
  }

  // GET /orders/create
  create(ctx: Context) {
    ctx.html(200, 'orders/create.html', { values: {}, errors: {}, operator: ctx.user });
  }

  // POST /orders
  async store(ctx: Context) {
    const input = await ctx.bind(OrderInput);
    if (!input.ok) return showFormAgain(ctx, input, 'orders/create.html', {});
    const order = await this.orders.create(input.value, 'the order form');
    ctx.flash('success', `Order ${order.id} created`);
    ctx.redirect(303, ctx.urlFor('orders.show', { id: order.id }));
  }

  // GET /orders/:id
  @Public()
  async show(ctx: Context) {
    const order = await this.orders.get(ctx.param('id'));
    ctx.html(200, 'orders/show.html', { order });
  }

  // GET /orders/:id/edit
  async edit(ctx: Context) {
    const order = await this.orders.get(ctx.param('id'));
    ctx.html(200, 'orders/edit.html', { order, values: order, errors: {}, operator: ctx.user });
  }

  // PUT /orders/:id (the edit form posts `_method=PUT`)
  async update(ctx: Context) {
    const order = await this.orders.get(ctx.param('id'));
    const input = await ctx.bind(OrderInput);
    if (!input.ok) return showFormAgain(ctx, input, 'orders/edit.html', { order });
    await this.orders.update(order, input.value);
    ctx.flash('success', `Order ${order.id} updated`);
    ctx.redirect(303, ctx.urlFor('orders.show', { id: order.id }));
  }

  // DELETE /orders/:id (the delete button posts `_method=DELETE`)
  async destroy(ctx: Context) {
    await this.orders.remove(ctx.param('id'));
    ctx.flash('success', `Order ${ctx.param('id')} deleted`);
    ctx.redirect(303, ctx.urlFor('orders.index'));
  }
}

// A form that did not validate comes back as the user filled it in, with a message by each field.
function showFormAgain(ctx: Context, failure: BindFailure, view: string, data: object): void {
  if (failure.status !== 422) throw failure.error;
  const values = Object.fromEntries(FIELDS.map((field) => [field, ctx.form(field, '')]));
  ctx.html(422, view, { ...data, values, errors: failure.errors, operator: ctx.user });
}

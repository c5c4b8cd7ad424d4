import { Catch, type Context, type ExceptionFilter } from 'keel';
import { OrderNotFound } from '../orders/order-not-found';

/** A missing order on the HTML pages: the 404 page, naming the path that was asked for. */
@Catch(OrderNotFound)
export class OrderNotFoundPage implements ExceptionFilter<OrderNotFound> {
  catch(error: OrderNotFound, ctx: Context) {
    ctx.html(404, 'errors/404.html', { status: 404, message: error.message, path: ctx.req.path });
  }
}

/** A missing order on the JSON API: `{"error": "order 7 not found"}`. */
@Catch(OrderNotFound)
export class OrderNotFoundJson implements ExceptionFilter<OrderNotFound> {
  catch(error: OrderNotFound, ctx: Context) {
    ctx.error(404, error.message);
  }
}

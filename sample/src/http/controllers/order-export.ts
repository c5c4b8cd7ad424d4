import { Readable } from 'node:stream';
import { Controller, Get, Public, type Context } from 'keel';
import { OrderService } from '../../orders/order-service';

/**
 * `GET /orders/export.csv`: every order as a CSV file, streamed as the database gives it, for a
 * spreadsheet. Open to anyone, as the list is.
 */
@Public()
@Controller('orders')
export class OrderExportController {
  constructor(private readonly orders: OrderService) {}

  @Get('export.csv', { name: 'orders.export' })
  export(ctx: Context) {
    ctx.header('Content-Type', 'text/csv; charset=utf-8');
    ctx.header('Content-Disposition', 'attachment; filename="orders.csv"');
    return Readable.from(this.orders.csvLines());
  }
}

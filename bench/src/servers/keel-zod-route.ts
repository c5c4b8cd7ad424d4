import { Body, Controller, Ctx, Post, type Context } from 'keel';
import { storedOrder, type CreateOrder } from './create-order';
import { createOrderSchema } from './create-order-schema';

/** `POST /api/orders/zod`: the order of `POST /api/orders` validated by a zod schema, through the Standard Schema interface. */
@Controller('api/orders')
export class ZodOrderController {
  @Post('zod')
  store(@Body(createOrderSchema) input: CreateOrder, @Ctx() ctx: Context) {
    ctx.json(201, storedOrder(input));
  }
}

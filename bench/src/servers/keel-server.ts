import 'reflect-metadata';
import {
  Body,
  Controller,
  Ctx,
  DatabaseModule,
  Get,
  HealthModule,
  HttpError,
  InjectRepository,
  MetricsModule,
  Module,
  Param,
  Post,
  createApplication,
  type Context,
} from 'keel';
import type { Repository } from 'typeorm';
import { CreateOrder, shownOrder, storedOrder } from './create-order';
import { ORDER_NOT_FOUND, OrderRecord, orderRecordId } from './order-record';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl, isProduction } = readServerEnvironment();

@Controller('orders')
class OrderController {
  @Get(':id')
  show(@Param('id') id: string) {
    return shownOrder(id);
  }
}

@Controller('api/orders')
class ApiOrderController {
  constructor(@InjectRepository(OrderRecord) private readonly orders: Repository<OrderRecord>) {}

  @Post()
  store(@Body() input: CreateOrder, @Ctx() ctx: Context) {
    ctx.json(201, storedOrder(input));
  }

  @Get(':id')
  async show(@Param('id') raw: string) {
    const id = orderRecordId(raw);
    const order = id === undefined ? null : await this.orders.findOneBy({ id });
    if (!order) throw new HttpError(404, ORDER_NOT_FOUND.error);
    return order;
  }
}

@Module({
  imports: [
    DatabaseModule.forRoot({ type: 'postgres', url: databaseUrl, entities: [OrderRecord] }),
    DatabaseModule.forFeature([OrderRecord]),
    HealthModule.forRoot(),
    // Production: GET /metrics with the HTTP series, beside the access log the default logger writes.
    ...(isProduction ? [MetricsModule.forRoot()] : []),
  ],
  // The same body through a zod schema, beside the class-validator class: the validation phase's alone.
  controllers: [
    OrderController,
    ApiOrderController,
    ...(process.env.ZOD_ROUTE === '1' ? [zodOrderController()] : []),
  ],
})
class AppModule {}

function zodOrderController(): new () => unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- zod loads only with its route
  return (require('./keel-zod-route') as typeof import('./keel-zod-route')).ZodOrderController;
}

async function main(): Promise<void> {
  const app = await createApplication(AppModule, isProduction ? {} : { logger: false });
  await app.listen(port, '127.0.0.1');
}

void main();

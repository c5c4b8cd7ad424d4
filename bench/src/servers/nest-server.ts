import 'reflect-metadata';
import { Body, Controller, Get, HttpException, Module, Param, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthCheck, HealthCheckService, TerminusModule, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { CreateOrder, shownOrder, storedOrder } from './create-order';
import { ORDER_NOT_FOUND, OrderRecord, orderRecordId } from './order-record';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl, isProduction } = readServerEnvironment();

// nestjs-pino and the Prometheus module, loaded only in production.
function loadProduction(): typeof import('./nest-production') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  return require('./nest-production') as typeof import('./nest-production');
}
const production = isProduction ? loadProduction() : undefined;

@Controller('health')
class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get()
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.database.pingCheck('database')]);
  }
}

@Controller()
class OrderController {
  @Get('orders/:id')
  show(@Param('id') id: string) {
    return shownOrder(id);
  }
}

@Controller('api/orders')
class ApiOrderController {
  constructor(@InjectRepository(OrderRecord) private readonly orders: Repository<OrderRecord>) {}

  @Post()
  store(@Body() input: CreateOrder) {
    return storedOrder(input);
  }

  @Get(':id')
  async show(@Param('id') raw: string) {
    const id = orderRecordId(raw);
    const order = id === undefined ? null : await this.orders.findOneBy({ id });
    if (!order) throw new HttpException(ORDER_NOT_FOUND, 404);
    return order;
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({ type: 'postgres', url: databaseUrl, entities: [OrderRecord] }),
    TypeOrmModule.forFeature([OrderRecord]),
    TerminusModule,
    ...(production?.productionImports ?? []),
  ],
  controllers: [HealthController, OrderController, ApiOrderController],
  providers: production?.productionProviders ?? [],
})
class AppModule {}

async function main(): Promise<void> {
  const app = production
    ? await NestFactory.create(AppModule, { bufferLogs: true })
    : await NestFactory.create(AppModule, { logger: false });
  if (production) app.useLogger(app.get(production.PinoLogger));
  // Validation as NestJS users switch it on: one global ValidationPipe over the class-validator class.
  app.useGlobalPipes(new ValidationPipe());
  await app.listen(port, '127.0.0.1');
}

void main();

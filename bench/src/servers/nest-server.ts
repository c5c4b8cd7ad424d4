import 'reflect-metadata';
import { Body, Controller, Get, Module, Param, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthCheck, HealthCheckService, TerminusModule, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreateOrder, shownOrder, storedOrder } from './create-order';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();

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

  @Post('api/orders')
  store(@Body() input: CreateOrder) {
    return storedOrder(input);
  }
}

@Module({
  imports: [TypeOrmModule.forRoot({ type: 'postgres', url: databaseUrl }), TerminusModule],
  controllers: [HealthController, OrderController],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: false });
  app.useGlobalPipes(new ValidationPipe());
  await app.listen(port, '127.0.0.1');
}

void main();

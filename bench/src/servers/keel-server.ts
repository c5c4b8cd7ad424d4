import 'reflect-metadata';
import {
  Body,
  Controller,
  Ctx,
  DatabaseModule,
  Get,
  HealthModule,
  Module,
  Param,
  Post,
  createApplication,
  type Context,
} from 'keel';
import { CreateOrder, shownOrder, storedOrder } from './create-order';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();

@Controller('orders')
class OrderController {
  @Get(':id')
  show(@Param('id') id: string) {
    return shownOrder(id);
  }
}

@Controller('api/orders')
class ApiOrderController {
  @Post()
  store(@Body() input: CreateOrder, @Ctx() ctx: Context) {
    ctx.json(201, storedOrder(input));
  }
}

@Module({
  imports: [DatabaseModule.forRoot({ type: 'postgres', url: databaseUrl }), HealthModule.forRoot()],
  controllers: [OrderController, ApiOrderController],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await createApplication(AppModule, { logger: false });
  await app.listen(port, '127.0.0.1');
}

void main();

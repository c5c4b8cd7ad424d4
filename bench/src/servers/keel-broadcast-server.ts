import 'reflect-metadata';
import {
  Body,
  Broadcast,
  Controller,
  Ctx,
  DatabaseModule,
  Module,
  Post,
  RealtimeModule,
  RealtimeTables1764633600000,
  Sse,
  createApplication,
  type Context,
} from 'keel';
import { ORDER_EVENTS, orderEventSchema, type OrderEvent } from './order-events';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();

// Every stream follows the channel from the moment it opens (no Last-Event-ID: no replay), and each
// POST publishes one event to it through PostgreSQL, as a replica of a deployment does.
@Controller()
class OrderEventsController {
  constructor(private readonly broadcast: Broadcast) {}

  @Sse(ORDER_EVENTS.streamPath)
  live() {
    return this.broadcast.stream(ORDER_EVENTS.channel);
  }

  @Post(ORDER_EVENTS.publishPath)
  async publish(@Body(orderEventSchema) order: OrderEvent, @Ctx() ctx: Context) {
    const id = await this.broadcast.publish(ORDER_EVENTS.channel, ORDER_EVENTS.event, order);
    ctx.json(201, { id });
  }
}

@Module({
  imports: [
    DatabaseModule.forRoot({
      type: 'postgres',
      url: databaseUrl,
      migrations: [RealtimeTables1764633600000],
      migrationsRun: true,
    }),
    RealtimeModule.forRoot(),
  ],
  controllers: [OrderEventsController],
})
class AppModule {}

// keel's Broadcast over the database the runner made for it alone (DATABASE_URL): the server of the
// SSE fan-out, whose streams the runner opens and whose events it publishes.
async function main(): Promise<void> {
  const app = await createApplication(AppModule, { logger: false, etag: false });
  app.router.get('/health', () => ({ status: 'ok' }));
  await app.listen(port, '127.0.0.1');
}

void main();

import 'reflect-metadata';
import { createApplication, Module } from 'keel';
import { shownOrder } from './create-order';
import { readServerEnvironment } from './server-environment';

const { port } = readServerEnvironment();
const routeCount = Number(process.env.ROUTE_COUNT ?? 10_000);

@Module({})
class AppModule {}

// An application with ROUTE_COUNT routes of one shape (`GET /r<n>/orders/:id`), and its liveness
// route: how long boot takes, and whether dispatch slows down as the table grows.
async function main(): Promise<void> {
  const app = await createApplication(AppModule, { logger: false });
  for (let index = 0; index < routeCount; index += 1)
    app.router.get(`/r${index}/orders/:id`, (ctx) => shownOrder(ctx.param('id')));
  app.router.get('/health', () => ({ status: 'ok' }));
  await app.listen(port, '127.0.0.1');
}

void main();

import 'reflect-metadata';
import {
  APP_GUARD,
  APP_INTERCEPTOR,
  Controller,
  Get,
  Module,
  Param,
  createApplication,
  type CallNext,
  type CanActivate,
  type Context,
  type Interceptor,
  type Provider,
} from 'keel';
import { shownOrder } from './create-order';
import { readServerEnvironment } from './server-environment';

const { port } = readServerEnvironment();
const hasHooks = process.env.HOOKS === '1';

// What a typical global guard and interceptor do per request: read a header, set one.
class ApiKeyGuard implements CanActivate {
  canActivate(ctx: Context) {
    return ctx.req.headers['x-api-key'] !== 'revoked';
  }
}

class ServedBy implements Interceptor {
  async intercept(ctx: Context, next: CallNext) {
    ctx.header('X-Served-By', 'keel');
    return next();
  }
}

@Controller('orders')
class OrderController {
  @Get(':id')
  show(@Param('id') id: string) {
    return shownOrder(id);
  }
}

const hooks: Provider[] = [
  { provide: APP_GUARD, useClass: ApiKeyGuard },
  { provide: APP_INTERCEPTOR, useClass: ServedBy },
];

@Module({ controllers: [OrderController], providers: hasHooks ? hooks : [] })
class AppModule {}

// `GET /orders/:id` with (HOOKS=1) or without one global guard and one global interceptor: what
// the hooks cost a route per request.
async function main(): Promise<void> {
  const app = await createApplication(AppModule, { logger: false });
  app.router.get('/health', () => ({ status: 'ok' }));
  await app.listen(port, '127.0.0.1');
}

void main();

import 'reflect-metadata';
import {
  APP_GUARD,
  AuthModule,
  APP_INTERCEPTOR,
  Body,
  Controller,
  Ctx,
  Get,
  MetricsModule,
  Module,
  Param,
  Post,
  createApplication,
  jwt,
  type CallNext,
  type CanActivate,
  type Context,
  type Interceptor,
  type Provider,
} from 'keel';
import { BENCH_JWT_SECRET } from './bench-jwt';
import { ALLOWED_ORIGIN } from './cross-origin';
import { type CreateOrder, shownOrder, storedOrder } from './create-order';
import { createOrderSchema } from './create-order-schema';
import { ShownOrder } from './shown-order';
import { orderList } from './order-list';
import { readServerEnvironment } from './server-environment';

const { port } = readServerEnvironment();
const isOn = (name: string): boolean => process.env[name] === '1';
// Read once: a read of process.env goes through C++ and cost the route 3 % of its instructions.
const answersClass = isOn('RETURNED_CLASS');

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
  @Get()
  list() {
    return orderList();
  }

  @Get(':id')
  show(@Param('id') id: string) {
    return answersClass ? new ShownOrder(id) : shownOrder(id);
  }
}

// The order POSTed through a zod schema (Standard Schema), and the same body taken as it comes: what
// validating it costs beside reading and answering it.
@Controller('api/orders')
class OrderInputController {
  @Post('zod')
  storeParsed(@Body(createOrderSchema) input: CreateOrder, @Ctx() ctx: Context) {
    ctx.json(201, storedOrder(input));
  }

  // The JSON body keel parsed, read from the request as it came: nothing bound, nothing checked.
  @Post('unchecked')
  storeAsItCame(@Ctx() ctx: Context) {
    ctx.json(201, storedOrder(ctx.req.body as CreateOrder));
  }
}

const hooks: Provider[] = [
  { provide: APP_GUARD, useClass: ApiKeyGuard },
  { provide: APP_INTERCEPTOR, useClass: ServedBy },
];

// Every controller route needs a user, found by a valid HS256 token: the signature and exp checked
// by jose, the user made from the claims without a lookup.
function authentication() {
  return AuthModule.forRoot({
    default: 'jwt',
    strategies: { jwt: jwt({ secret: BENCH_JWT_SECRET }) },
    user: { useFactory: () => (claims) => ({ id: claims.sub }) },
  });
}

@Module({
  imports: [
    ...(isOn('METRICS') ? [MetricsModule.forRoot()] : []),
    ...(isOn('JWT') ? [authentication()] : []),
  ],
  controllers: [OrderController, OrderInputController],
  providers: isOn('HOOKS') ? hooks : [],
})
class AppModule {}

// `GET /orders/:id` with the parts of a production configuration the environment turns on: hooks
// (HOOKS=1), the access log through keel's default pino logger (ACCESS_LOG=1; the runner discards
// stdout, as a log shipper would read it), `GET /metrics` with keel's HTTP series (METRICS=1), load shedding with the limit `framework new` writes
// (LOAD_SHEDDING=1), every route behind AuthModule's jwt() (JWT=1), the order answered as an instance
// of a class with an @Exclude()d column, the same JSON (RETURNED_CLASS=1); and without the request scope that currentRequest() reads (NO_REQUEST_SCOPE=1), or
// without the `X-Request-Id` header read and answered (NO_REQUEST_ID_HEADER=1), or without the default
// security headers (NO_SECURITY_HEADERS=1). CORS=1 allows one other origin, whose requests are
// answered with Access-Control-Allow-Origin. ETags are off unless ETAG=1 (Fastify's bare server, the
// peer of the bare row, sends none); COMPRESSION=1 turns compression on, which `GET /orders` (about
// 4 KiB of JSON) is large enough for.
// Each off, the application pays nothing for it.
async function main(): Promise<void> {
  const app = await createApplication(AppModule, {
    ...(isOn('ACCESS_LOG') ? {} : { logger: false }),
    ...(isOn('LOAD_SHEDDING') ? { loadShedding: { maxEventLoopDelayMs: 1000 } } : {}),
    ...(isOn('NO_REQUEST_SCOPE') ? { requestScope: false } : {}),
    ...(isOn('NO_REQUEST_ID_HEADER') ? { requestIdHeader: false } : {}),
    ...(isOn('NO_SECURITY_HEADERS') ? { securityHeaders: false } : {}),
    ...(isOn('COMPRESSION') ? { compression: true } : {}),
    ...(isOn('CORS') ? { cors: { origins: [ALLOWED_ORIGIN] } } : {}),
    etag: isOn('ETAG'),
  });
  app.router.get('/health', () => ({ status: 'ok' }));
  await app.listen(port, '127.0.0.1');
}

void main();

import 'reflect-metadata';
import Fastify from 'fastify';
import { DataSource } from 'typeorm';
import { shownOrder, storedOrder, type CreateOrder } from './create-order';
import { ORDER_NOT_FOUND, OrderRecord, orderRecordId } from './order-record';
import { readiness } from './readiness';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl, isProduction } = readServerEnvironment();

// CreateOrder's rules as Fastify users state them: a JSON schema on the route, compiled by ajv at boot.
const CREATE_ORDER_SCHEMA = {
  type: 'object',
  required: ['item', 'quantity', 'email'],
  properties: {
    item: { type: 'string', minLength: 1, maxLength: 80 },
    quantity: { type: 'integer', minimum: 1, maximum: 1000 },
    email: { type: 'string', format: 'email' },
  },
} as const;

// Loaded only in production, so that the default rows carry none of it.
function loadMetricsPlugin(): (typeof import('fastify-metrics'))['default'] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  return (require('fastify-metrics') as typeof import('fastify-metrics')).default;
}

// Fastify with its defaults (its router, JSON parser and serializer); in production with
// `logger: true` (pino, to stdout) and fastify-metrics' GET /metrics, as its users set it up.
async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl, entities: [OrderRecord] });
  await dataSource.initialize();
  const orders = dataSource.getRepository(OrderRecord);

  // OPTIMIZE_EMPTY_REQUESTS=1 (never set by the runner): Node's option that keel turns on by default
  // (`endBodilessRequests`), given to Fastify's server, to show what it would gain Fastify too.
  // The cast: the @types/node of Node 20 predates the option.
  const endsBodilessRequests = process.env.OPTIMIZE_EMPTY_REQUESTS === '1';
  const app = Fastify({
    logger: isProduction,
    ...(endsBodilessRequests && { http: { optimizeEmptyRequests: true } as object }),
  });
  if (isProduction) await app.register(loadMetricsPlugin(), { endpoint: '/metrics' });

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/health/ready', async (_request, reply) => {
    const { status, body } = await readiness(dataSource);
    return reply.code(status).send(body);
  });

  app.get<{ Params: { id: string } }>('/orders/:id', async (request) => shownOrder(request.params.id));

  app.post<{ Body: CreateOrder }>(
    '/api/orders',
    { schema: { body: CREATE_ORDER_SCHEMA } },
    async (request, reply) => reply.code(201).send(storedOrder(request.body)),
  );

  // The same body through zod, beside the JSON schema: the validation phase's alone.
  if (process.env.ZOD_ROUTE === '1') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- zod loads only with its route
    const { zodOrderRoute } = require('./fastify-zod-route') as typeof import('./fastify-zod-route');
    await app.register(zodOrderRoute);
  }

  app.get<{ Params: { id: string } }>('/api/orders/:id', async (request, reply) => {
    const id = orderRecordId(request.params.id);
    const order = id === undefined ? null : await orders.findOneBy({ id });
    return order ?? reply.code(404).send(ORDER_NOT_FOUND);
  });

  await app.listen({ port, host: '127.0.0.1' });
}

void main();

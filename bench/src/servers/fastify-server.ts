import 'reflect-metadata';
import Fastify from 'fastify';
import { DataSource } from 'typeorm';
import { shownOrder, storeOrder } from './create-order';
import { readiness } from './readiness';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();

// Fastify with its defaults: its router, its JSON parser and serializer, no schemas.
async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl });
  await dataSource.initialize();

  const app = Fastify({ logger: false });

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/health/ready', async (_request, reply) => {
    const { status, body } = await readiness(dataSource);
    return reply.code(status).send(body);
  });

  app.get<{ Params: { id: string } }>('/orders/:id', async (request) => shownOrder(request.params.id));

  app.post('/api/orders', async (request, reply) => {
    const { status, body } = await storeOrder(request.body);
    return reply.code(status).send(body);
  });

  await app.listen({ port, host: '127.0.0.1' });
}

void main();

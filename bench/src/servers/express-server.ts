import 'reflect-metadata';
import express from 'express';
import { DataSource } from 'typeorm';
import { shownOrder, storeOrder } from './create-order';
import { ORDER_NOT_FOUND, OrderRecord, orderRecordId } from './order-record';
import { readiness } from './readiness';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl, isProduction } = readServerEnvironment();

// Request logging (pino-http, to stdout) and metrics (express-prom-bundle: prom-client's defaults and
// a duration histogram by method, path and status, on GET /metrics), loaded only in production.
function productionMiddleware(): express.RequestHandler[] {
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred loads */
  const promBundle = require('express-prom-bundle') as typeof import('express-prom-bundle');
  const { pinoHttp } = require('pino-http') as typeof import('pino-http');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return [promBundle({ includeMethod: true, includePath: true }), pinoHttp()];
}

async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl, entities: [OrderRecord] });
  await dataSource.initialize();
  const orders = dataSource.getRepository(OrderRecord);

  const app = express();
  if (isProduction) app.use(...productionMiddleware());
  app.use(express.json());

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/health/ready', async (_req, res) => {
    const { status, body } = await readiness(dataSource);
    res.status(status).json(body);
  });

  app.get('/orders/:id', (req, res) => {
    res.json(shownOrder(req.params.id));
  });

  app.post('/api/orders', (req, res) => {
    const { status, body } = storeOrder(req.body);
    res.status(status).json(body);
  });

  app.get('/api/orders/:id', async (req, res) => {
    const id = orderRecordId(req.params.id);
    const order = id === undefined ? null : await orders.findOneBy({ id });
    if (order) res.json(order);
    else res.status(404).json(ORDER_NOT_FOUND);
  });

  app.listen(port, '127.0.0.1');
}

void main();

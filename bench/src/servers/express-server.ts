import 'reflect-metadata';
import express from 'express';
import { DataSource } from 'typeorm';
import { shownOrder, storeOrder } from './create-order';
import { readiness } from './readiness';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();

async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl });
  await dataSource.initialize();

  const app = express();
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

  app.post('/api/orders', async (req, res) => {
    const { status, body } = await storeOrder(req.body);
    res.status(status).json(body);
  });

  app.listen(port, '127.0.0.1');
}

void main();

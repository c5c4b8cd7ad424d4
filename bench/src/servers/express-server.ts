import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import express from 'express';
import { DataSource } from 'typeorm';
import { CreateOrder, shownOrder, storedOrder } from './create-order';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();

// A readiness probe that can hang forever is no probe: one second, as orchestrators allow by default.
const READINESS_TIMEOUT_MS = 1000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl });
  await dataSource.initialize();

  const app = express();
  app.use(express.json());

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/health/ready', async (_req, res) => {
    try {
      await withTimeout(dataSource.query('SELECT 1'), READINESS_TIMEOUT_MS);
      res.json({ status: 'ready', db: 'connected' });
    } catch (error) {
      res.status(503).json({ status: 'error', db: error instanceof Error ? error.message : String(error) });
    }
  });

  app.get('/orders/:id', (req, res) => {
    res.json(shownOrder(req.params.id));
  });

  app.post('/api/orders', async (req, res) => {
    const input = plainToInstance(CreateOrder, req.body as object);
    const errors = await validate(input);
    if (errors.length > 0) {
      res.status(422).json({ error: 'validation failed', fields: errors.map((e) => e.property) });
      return;
    }
    res.status(201).json(storedOrder(input));
  });

  app.listen(port, '127.0.0.1');
}

void main();

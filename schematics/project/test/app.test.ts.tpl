import 'reflect-metadata';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { AppModule } from '../src/app.module';

// The whole application in-process: requests go through every phase of the pipeline, with no
// socket, on a database of its own (a copy of the migrated schema on the PostgreSQL server that
// DATABASE_URL names, else in memory), dropped at close().
let app: TestingApplication;

beforeAll(async () => {
  // withTestDatabase() replaces the application's database, whose server then never starts; the
  // metrics port stays closed, since the application never listens here.
  app = await createTestingApplication(AppModule).withTestDatabase().boot({ logger: false });
}, 60_000);

afterAll(() => app.close());

test('GET /health answers 200', async () => {
  const res = await app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok' });
});

test('GET /health/ready answers 200 with the database connected', async () => {
  const res = await app.inject({ method: 'GET', url: '/health/ready' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ready', db: 'connected' });
});

test('GET / names the application', async () => {
  const res = await app.inject({ method: 'GET', url: '/' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ name: '{{name}}' });
});

test('an unknown path is a JSON 404', async () => {
  const res = await app.inject({ method: 'GET', url: '/nothing-here' });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toHaveProperty('error');
});

import 'reflect-metadata';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { AppModule } from '../src/app.module';

// The whole application in-process: requests go through every phase of the pipeline, with no
// socket. No database runs here: the application boots all the same (it connects in the
// background), and liveness never asks it.
let app: TestingApplication;

beforeAll(async () => {
  // Metrics on a free port: an application that never listens (as here) opens none.
  const database = { url: 'postgres://postgres@127.0.0.1:1/none' };
  app = await createTestingApplication(AppModule.on(database, { port: 0 })).boot({ logger: false });
});

afterAll(() => app.close());

test('GET /health answers 200 without touching the database', async () => {
  const res = await app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok' });
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

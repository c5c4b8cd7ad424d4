import 'reflect-metadata';
import { createApplication, type Application } from 'keel';
import { AppModule } from '../src/app.module';

// The application served on a free port and asked over real HTTP. No database runs here: the
// application boots all the same (it connects in the background), and liveness never asks it.
let app: Application;
let url: string;

beforeAll(async () => {
  app = await createApplication(AppModule.on({ url: 'postgres://postgres@127.0.0.1:1/none' }), {
    logger: false,
    handleSignals: false,
  });
  ({ url } = await app.listen(0, '127.0.0.1'));
});

afterAll(() => app.close());

test('GET /health answers 200 without touching the database', async () => {
  const res = await fetch(`${url}/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok' });
});

test('GET / names the application', async () => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ name: '{{name}}' });
});

test('an unknown path is a JSON 404', async () => {
  const res = await fetch(`${url}/nothing-here`);
  expect(res.status).toBe(404);
  expect(await res.json()).toHaveProperty('error');
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { IsEmail } from 'class-validator';
import request from 'supertest';
import { Controller, Get, HttpError, type Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

class Signup {
  @IsEmail() email!: string;
}

@Controller('silent')
class SilentController {
  @Get() nothing(): void {}
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [SilentController] }));
  app.router
    .get('/ok', () => ({ ok: true }))
    .post('/echo', (ctx) => ({ received: ctx.req.body as unknown }))
    .post('/signups', async (ctx) => {
      const input = await ctx.bind(Signup);
      if (!input.ok) throw input.error;
      ctx.json(201, input.value);
    })
    .get('/taken', () => {
      throw new HttpError(409, 'taken');
    })
    .get('/unavailable', () => {
      throw new HttpError(503, 'db creds x');
    })
    .get('/unavailable/exposed', () => {
      throw new HttpError(503, 'database is restarting', { expose: true });
    })
    .get('/boom', () => {
      throw new Error('secret');
    })
    .get('/boom/async', async () => {
      await Promise.resolve();
      throw new Error('async secret');
    })
    .get('/boom/rejected', () => Promise.reject(new Error('rejected secret')))
    .get('/boom/null', () => {
      throw null;
    })
    .get('/boom/status-200', () => {
      throw new HttpError(200, 'x');
    });
});

// The process never crashes on input: after every bad request, a good one still succeeds.
afterEach(async () => {
  const res = await request(listenerOf(app)).get('/ok');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ok: true });
});

describe('routing', () => {
  test('no route for the path is 404', async () => {
    const res = await request(listenerOf(app)).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'no route for GET /nowhere' });
  });

  test('a path without the method is 405 with Allow', async () => {
    const res = await request(listenerOf(app)).delete('/ok');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({ error: 'method DELETE not allowed on /ok' });
  });
});

describe('bodies', () => {
  test.each([
    ['a malformed JSON body', 'application/json', '{"a":', 'malformed JSON body'],
    [
      'a malformed multipart body',
      'multipart/form-data; boundary=keel-boundary',
      '--keel-boundary\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
      'malformed multipart body',
    ],
    ['a multipart body without a boundary', 'multipart/form-data', 'name=value', 'malformed multipart body'],
  ])('%s is 400', async (_body, contentType, body, error) => {
    const res = await request(listenerOf(app)).post('/echo').set('Content-Type', contentType).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  test('a JSON body just over the default 1 MiB limit is 413', async () => {
    const payload = JSON.stringify({ data: 'x'.repeat(1.1 * 1024 * 1024) });
    const res = await request(listenerOf(app))
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send(payload);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
  });

  test('a JSON body just under the default 1 MiB limit is accepted', async () => {
    const payload = JSON.stringify({ data: 'x'.repeat(1024 * 1024 - 100) });
    const res = await request(listenerOf(app))
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send(payload);
    expect(res.status).toBe(201);
  });
});

describe('bind', () => {
  test('an unsupported content type is 415', async () => {
    const res = await request(listenerOf(app)).post('/signups').type('text/plain').send('ada@example.com');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'unsupported content type "text/plain": send JSON or a form' });
  });

  test('a validation failure is 422 with the fields', async () => {
    const res = await request(listenerOf(app)).post('/signups').send({ email: 'nope' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'validation failed', fields: { email: ['email must be an email'] } });
  });
});

describe('thrown errors', () => {
  test('HttpError(409, "taken") is 409 {"error":"taken"}', async () => {
    const res = await request(listenerOf(app)).get('/taken');
    expect(res.status).toBe(409);
    expect(res.text).toBe('{"error":"taken"}');
  });

  test('a 5xx HttpError keeps its status and hides its message', async () => {
    const res = await request(listenerOf(app)).get('/unavailable');
    expect(res.status).toBe(503);
    expect(res.text).toBe('{"error":"internal server error"}');
  });

  test('a 5xx HttpError with expose: true shows its message', async () => {
    const res = await request(listenerOf(app)).get('/unavailable/exposed');
    expect(res.status).toBe(503);
    expect(res.text).toBe('{"error":"database is restarting"}');
  });

  test.each([
    ['a sync handler that throws', '/boom', 'secret'],
    ['an async handler that throws', '/boom/async', 'async secret'],
    ['a handler whose promise rejects', '/boom/rejected', 'rejected secret'],
  ])('%s gets 500 with neither the message nor a stack', async (_label, path, message) => {
    const res = await request(listenerOf(app)).get(path);
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"error":"internal server error"}');
    expect(res.text).not.toContain(message);
    expect(res.text).not.toMatch(/\bat\s|\.ts:\d+/);
  });

  test('HttpError with a non-error status throws RangeError', () => {
    expect(() => new HttpError(200, 'x')).toThrow(RangeError);
    expect(() => new HttpError(200, 'x')).toThrow(
      'HttpError status must be an integer from 400 to 599, got 200',
    );
  });

  test.each([
    ['a handler that throws null', '/boom/null'],
    ['a handler that builds HttpError(200)', '/boom/status-200'],
    ['a handler that returns without responding', '/silent'],
  ])('%s gets 500', async (_handler, path) => {
    const res = await request(listenerOf(app)).get(path);
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"error":"internal server error"}');
  });
});

describe('bodyLimit option', () => {
  let small: Application;

  beforeAll(async () => {
    small = await bootApp(moduleWith({}), { bodyLimit: '1kb' });
    small.router.post('/echo', (ctx) => ({ size: JSON.stringify(ctx.req.body).length }));
  });

  afterEach(async () => {
    const res = await request(listenerOf(small)).post('/echo').send({ a: 'b' });
    expect(res.status).toBe(201);
  });

  test('a JSON body under the limit is accepted', async () => {
    const res = await request(listenerOf(small))
      .post('/echo')
      .send({ data: 'x'.repeat(900) });
    expect(res.status).toBe(201);
  });

  test('a JSON body over the limit is 413', async () => {
    const res = await request(listenerOf(small))
      .post('/echo')
      .send({ data: 'x'.repeat(2048) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
  });

  test('a urlencoded body over the limit is 413', async () => {
    const res = await request(listenerOf(small))
      .post('/echo')
      .type('form')
      .send({ data: 'x'.repeat(2048) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
  });

  test('a multipart field over the limit is 413', async () => {
    const res = await request(listenerOf(small)).post('/echo').field('data', 'x'.repeat(2048));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
  });

  test('multipart fields each under the limit but over it together are 413', async () => {
    const res = await request(listenerOf(small))
      .post('/echo')
      .field('a', 'x'.repeat(600))
      .field('b', 'x'.repeat(600))
      .field('c', 'x'.repeat(600));
    expect(res.status).toBe(413);
  });

  test('a multipart body under the limit is accepted', async () => {
    const res = await request(listenerOf(small)).post('/echo').field('a', 'x'.repeat(300));
    expect(res.status).toBe(201);
  });

  test('a chunked multipart body, which declares no length, is 411', async () => {
    const server = http.createServer(listenerOf(small)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    // Node's client streams a body written in pieces with no length as chunked.
    const sent = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/echo',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    sent.write('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n');
    sent.end('x\r\n--b--\r\n');
    const [response] = (await once(sent, 'response')) as [http.IncomingMessage];
    const text = (await response.toArray()).join('');
    server.close();
    expect(sent.getHeader('content-length')).toBeUndefined();
    expect(response.statusCode).toBe(411);
    expect(JSON.parse(text)).toEqual({ error: 'a multipart body needs a Content-Length' });
  });
});

describe('an invalid bodyLimit', () => {
  test.each(['10MiB', '1 megabyte', '-5kb', 0, Number.NaN])(
    '%p fails boot with E_INVALID_OPTION',
    async (limit) => {
      await expect(bootApp(moduleWith({}), { bodyLimit: limit })).rejects.toMatchObject({
        code: 'E_INVALID_OPTION',
        message: expect.stringContaining('the option bodyLimit is') as unknown,
      });
    },
  );
});

import http from 'node:http';
import { IsInt, IsString, Length, Min } from 'class-validator';
import { ApiResource, Controller, Module, Post, type Context } from 'keel';
import { createTestingApplication, type InjectOptions, type TestingApplication } from 'keel/testing';
import { FIXTURE_VIEWS } from '../factories/app';

class ItemInput {
  @IsString() @Length(1, 20) name!: string;
  @IsInt() @Min(1) quantity!: number;
}

@ApiResource('items')
class ItemController {
  index(ctx: Context) {
    return { page: Number(ctx.query('page', '1')), items: [] };
  }
  async store(ctx: Context) {
    const input = await ctx.bind(ItemInput);
    if (!input.ok) throw input.error;
    ctx.header('Location', '/items/7');
    ctx.json(201, { id: 7, ...input.value });
  }
  show(ctx: Context) {
    if (ctx.param('id') !== '1') return ctx.error(404, 'item not found');
    return { id: 1, name: 'bolt' };
  }
  update(ctx: Context) {
    return { id: Number(ctx.param('id')), name: ctx.form('name', '?') };
  }
  destroy(ctx: Context) {
    ctx.res.status(204).end();
  }
}

@Controller('forms')
class FormController {
  @Post('orders') order(ctx: Context) {
    ctx.redirect(303, `/orders/${encodeURIComponent(ctx.form('customer', ''))}`);
  }
  @Post('uploads') upload(ctx: Context) {
    const { files } = ctx.req as { files?: unknown };
    return { title: ctx.form('title', ''), hasFiles: files !== undefined };
  }
}

@Module({ controllers: [ItemController, FormController] })
class AppModule {}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

const IGNORED = new Set(['date', 'connection', 'keep-alive']);
const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const BOUNDARY = 'keelboundary';
const MULTIPART =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nQ3 report\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="notes"; filename="notes.txt"\r\n` +
  `Content-Type: text/plain\r\n\r\nsome notes\r\n--${BOUNDARY}--\r\n`;

// Each request with the status both transports must answer; every header is sent explicitly, so
// neither transport adds one of its own that the application could see.
const REQUESTS: [string, number, InjectOptions & { method: string; url: string }][] = [
  ['GET a JSON item', 200, { method: 'GET', url: '/items/1' }],
  ['GET with a query string', 200, { method: 'GET', url: '/items?page=3' }],
  [
    'POST valid JSON: 201 with Location',
    201,
    { method: 'POST', url: '/items', headers: JSON_TYPE, payload: '{"name":"nut","quantity":3}' },
  ],
  ['DELETE: 204', 204, { method: 'DELETE', url: '/items/1' }],
  [
    'POST a form: 303',
    303,
    { method: 'POST', url: '/forms/orders', headers: FORM_TYPE, payload: 'customer=Ada%20L' },
  ],
  ['GET a missing item: 404 from the handler', 404, { method: 'GET', url: '/items/2' }],
  ['GET an unknown path: 404', 404, { method: 'GET', url: '/nowhere' }],
  ['PUT on a collection: 405 with Allow', 405, { method: 'PUT', url: '/items' }],
  [
    'POST malformed JSON: 400',
    400,
    { method: 'POST', url: '/items', headers: JSON_TYPE, payload: '{"name":' },
  ],
  [
    'POST over the body limit: 413',
    413,
    {
      method: 'POST',
      url: '/items',
      headers: JSON_TYPE,
      payload: JSON.stringify({ name: 'x'.repeat(2048) }),
    },
  ],
  [
    'POST a body bind cannot read: 415',
    415,
    { method: 'POST', url: '/items', headers: { 'content-type': 'text/plain' }, payload: 'nut' },
  ],
  [
    'POST invalid JSON fields: 422 with fields',
    422,
    { method: 'POST', url: '/items', headers: JSON_TYPE, payload: '{"name":"","quantity":0}' },
  ],
  [
    'POST a form with _method=PUT',
    200,
    { method: 'POST', url: '/items/5', headers: FORM_TYPE, payload: '_method=PUT&name=washer' },
  ],
  [
    'POST a multipart form: 201, as a value a POST returns',
    201,
    {
      method: 'POST',
      url: '/forms/uploads',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: MULTIPART,
    },
  ],
  ['HEAD a JSON item', 200, { method: 'HEAD', url: '/items/1' }],
  ['HEAD an unknown path: 404 without a body', 404, { method: 'HEAD', url: '/nowhere' }],
  ['OPTIONS a known path: 204 with Allow', 204, { method: 'OPTIONS', url: '/items/1' }],
  ['a thrown error: 500 without its message', 500, { method: 'GET', url: '/boom' }],
];

let app: TestingApplication;
let origin: string;

beforeAll(async () => {
  app = await createTestingApplication(AppModule).boot({
    logger: false,
    views: FIXTURE_VIEWS,
    bodyLimit: '1kb',
  });
  app.router.get('/boom', () => {
    throw new Error('a secret detail');
  });
  origin = (await app.listen(0, '127.0.0.1')).url;
});

afterAll(() => app.close());

function withoutIgnored(
  headers: http.IncomingHttpHeaders | Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !IGNORED.has(name)));
}

function overHttp(options: {
  method: string;
  url: string;
  headers?: object;
  payload?: unknown;
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = typeof options.payload === 'string' ? options.payload : undefined;
    const headers = {
      ...(options.headers as http.OutgoingHttpHeaders),
      ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
    };
    const req = http.request(`${origin}${options.url}`, { method: options.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: withoutIgnored(res.headers),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function throughInject(options: InjectOptions): Promise<Answer> {
  const res = await app.inject(options);
  return { status: res.statusCode, headers: withoutIgnored(res.headers), body: res.body };
}

test.each(REQUESTS)('%s: inject and HTTP give the same answer', async (_name, status, request) => {
  // The same id both ways, so that the answers' X-Request-Id can be compared too.
  const options = { ...request, headers: { ...request.headers, 'x-request-id': 'parity-1' } };
  const [injected, served] = [await throughInject(options), await overHttp(options)];
  expect(injected.status).toBe(status);
  expect(injected).toEqual(served);
});

test('the table covers the answers the pipeline gives', async () => {
  // Every status the pipeline answers with, from the handler, binding, routing and the responder.
  expect(new Set(REQUESTS.map(([, status]) => status))).toEqual(
    new Set([200, 201, 204, 303, 400, 404, 405, 413, 415, 422, 500]),
  );
  const created = await throughInject(REQUESTS[2][2]);
  expect(created.headers.location).toBe('/items/7');
  const notAllowed = await throughInject(REQUESTS[7][2]);
  expect(notAllowed.headers.allow).toEqual(expect.stringContaining('GET'));
  const invalid = await throughInject(REQUESTS[11][2]);
  expect(JSON.parse(invalid.body)).toMatchObject({
    fields: { name: expect.any(Array), quantity: expect.any(Array) },
  });
  const overridden = await throughInject(REQUESTS[12][2]);
  expect(JSON.parse(overridden.body)).toEqual({ id: 5, name: 'washer' });
  const uploaded = await throughInject(REQUESTS[13][2]);
  expect(JSON.parse(uploaded.body)).toEqual({ title: 'Q3 report', hasFiles: true });
  const head = await throughInject(REQUESTS[14][2]);
  expect(head.body).toBe('');
  expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  const failed = await throughInject(REQUESTS[17][2]);
  expect(failed.body).not.toContain('secret');
});

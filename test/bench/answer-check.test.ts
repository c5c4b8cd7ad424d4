import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { checkRoute } from '../../bench/src/processes/answer-check';
import { ZOD_ORDER_ROUTE, benchRoute } from '../../bench/src/measure/routes';

/** A real server answering `POST /api/orders` and `GET /api/orders/42` with what `answers` says. */
async function serve(
  answers: Record<string, { status: number; body: unknown; headers?: Record<string, string> }>,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const isRefused = body.includes('not an address');
      const answer = answers[`${req.method} ${req.url}${isRefused ? ' refused' : ''}`];
      const headers: Record<string, string> = { 'content-type': 'application/json', ...answer?.headers };
      res.writeHead(answer?.status ?? 404, headers);
      const text = JSON.stringify(answer?.body ?? { error: 'not found' });
      res.end(headers['content-encoding'] === 'gzip' ? gzipSync(text) : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const baseUrl = (server: http.Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const soon = (): number => Date.now() + 300;

describe('the answers a server must give before it is measured', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const start = async (answers: Parameters<typeof serve>[0]): Promise<string> => {
    const server = await serve(answers);
    servers.push(server);
    return baseUrl(server);
  };

  it('accepts the seeded row, and an order answered 201 whose invalid twin is refused with 400', async () => {
    const url = await start({
      'GET /api/orders/42': {
        status: 200,
        body: { id: 42, item: 'item-42', quantity: 43, email: 'customer42@example.com' },
      },
      'POST /api/orders': {
        status: 201,
        body: { id: '1', item: 'tea', quantity: 2, email: 'ada@example.com' },
      },
      'POST /api/orders refused': {
        status: 400,
        body: { message: 'body/item must NOT have fewer than 1 characters' },
      },
    });
    await expect(checkRoute('peer', url, benchRoute('GET /api/orders/:id'), soon())).resolves.toBeUndefined();
    await expect(checkRoute('peer', url, benchRoute('POST /api/orders'), soon())).resolves.toBeUndefined();
  });

  it('stops the run when a row differs from the seeded one, naming the server, the route and the answer', async () => {
    const url = await start({ 'GET /api/orders/42': { status: 200, body: { id: 42, item: 'item-42' } } });
    await expect(checkRoute('peer', url, benchRoute('GET /api/orders/:id'), soon())).rejects.toThrow(
      'peer answered GET /api/orders/:id with 200 {"id":42,"item":"item-42"}, not 200 {"id":42,"item":"item-42","quantity":43,"email":"customer42@example.com"}',
    );
  });

  it('stops the run when the row is missing, once the deadline has passed', async () => {
    const url = await start({});
    await expect(checkRoute('peer', url, benchRoute('GET /api/orders/:id'), soon())).rejects.toThrow(
      'peer answered GET /api/orders/:id with 404 {"error":"not found"}',
    );
  });

  it('stops the run when an invalid order is accepted', async () => {
    const stored = { status: 201, body: { id: '1', item: 'tea', quantity: 2, email: 'ada@example.com' } };
    const url = await start({ 'POST /api/orders': stored, 'POST /api/orders refused': stored });
    await expect(checkRoute('peer', url, benchRoute('POST /api/orders'), soon())).rejects.toThrow(
      'peer answered an invalid POST /api/orders with 201',
    );
  });

  it('accepts a 422 on the zod route naming the three fields, in any order, and stops the run on one naming fewer', async () => {
    const stored = { status: 201, body: { id: '1', item: 'tea', quantity: 2, email: 'ada@example.com' } };
    const url = await start({
      'POST /api/orders/zod': stored,
      'POST /api/orders/zod refused': {
        status: 422,
        body: {
          error: 'validation failed',
          fields: { email: ['Invalid email address'], item: [], quantity: [] },
        },
      },
      'POST /api/orders': stored,
      'POST /api/orders refused': { status: 422, body: { error: 'validation failed', fields: ['item'] } },
    });
    await expect(checkRoute('keel', url, ZOD_ORDER_ROUTE, soon())).resolves.toBeUndefined();
    await expect(checkRoute('keel', url, benchRoute('POST /api/orders'), soon())).rejects.toThrow(
      'keel refused an invalid POST /api/orders naming ["item"], not ["email","item","quantity"]',
    );
  });

  it('stops the run when nothing listens', async () => {
    const server = await serve({});
    const url = baseUrl(server);
    await new Promise((resolve) => server.close(resolve));
    await expect(checkRoute('peer', url, benchRoute('GET /orders/:id'), soon())).rejects.toThrow(
      'peer answered GET /orders/:id with nothing, not 200 {"id":"42","status":"open"}',
    );
  });

  it('holds the answer to the headers the route names, reading a compressed body as a client does', async () => {
    const order = { status: 200, body: { id: '42', status: 'open' } };
    const tagged = { ...benchRoute('GET /orders/:id'), answerHeaders: { etag: /^W\/"[^"]+"$/ } };
    const url = await start({ 'GET /orders/42': { ...order, headers: { etag: 'W/"1a-x"' } } });
    await expect(checkRoute('keel', url, tagged, soon())).resolves.toBeUndefined();
    const untagged = await start({ 'GET /orders/42': order });
    await expect(checkRoute('keel', untagged, tagged, soon())).rejects.toThrow(
      'keel answered GET /orders/:id with etag: none, not /^W\\/"[^"]+"$/',
    );
    const compressed = { ...benchRoute('GET /orders/:id'), answerHeaders: { 'content-encoding': /^gzip$/ } };
    const zipped = await start({ 'GET /orders/42': { ...order, headers: { 'content-encoding': 'gzip' } } });
    await expect(checkRoute('keel', zipped, compressed, soon())).resolves.toBeUndefined();
  });

  it('stops the run when the answer carries a header the route turned off', async () => {
    const order = { status: 200, body: { id: '42', status: 'open' } };
    const bare = { ...benchRoute('GET /orders/:id'), absentHeaders: ['x-content-type-options'] };
    const plain = await start({ 'GET /orders/42': order });
    await expect(checkRoute('keel', plain, bare, soon())).resolves.toBeUndefined();
    const guarded = await start({
      'GET /orders/42': { ...order, headers: { 'x-content-type-options': 'nosniff' } },
    });
    await expect(checkRoute('keel', guarded, bare, soon())).rejects.toThrow(
      'keel answered GET /orders/:id with x-content-type-options, which it must not send',
    );
  });
});

import http from 'node:http';
import type { Application, BoundAddress } from 'keel';
import { bootApp, moduleWith } from '../factories/app';

// The body parsers and `_method` run as one stage that requests without a body skip: what reaches
// the handler must be the same either way. Raw HTTP, to choose the framing (chunked, declared length).
let app: Application;
let bound: BoundAddress;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .post('/echo', (ctx) => ({ method: ctx.req.method, body: ctx.req.body ?? null }))
    .delete('/echo', (ctx) => ({ method: ctx.req.method, body: ctx.req.body ?? null }))
    .get('/echo', (ctx) => ({ method: ctx.req.method, body: ctx.req.body ?? null }));
  bound = await app.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await app.close();
});

function send(
  method: string,
  headers: http.OutgoingHttpHeaders,
  chunks: string[],
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${bound.url}/echo`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

test('a chunked JSON body (no Content-Length) is parsed', async () => {
  const answer = await send('POST', { 'content-type': 'application/json' }, ['{"name":', '"Ada"}']);
  expect(answer).toEqual({ status: 201, json: { method: 'POST', body: { name: 'Ada' } } });
});

test('a chunked form with _method=DELETE is routed as DELETE', async () => {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const answer = await send('POST', headers, ['_method=DEL', 'ETE&name=Ada']);
  expect(answer).toEqual({
    status: 200,
    json: { method: 'DELETE', body: { _method: 'DELETE', name: 'Ada' } },
  });
});

test('a request without a body reaches the handler with none', async () => {
  expect(await send('GET', {}, [])).toEqual({ status: 200, json: { method: 'GET', body: null } });
  expect(await send('POST', { 'content-length': '0' }, [])).toEqual({
    status: 201,
    json: { method: 'POST', body: null },
  });
});

test('a GET that does carry a malformed JSON body is 400', async () => {
  const answer = await send('GET', { 'content-type': 'application/json', 'content-length': '7' }, [
    '{"name"',
  ]);
  expect(answer.status).toBe(400);
  expect(answer.json).toEqual({ error: expect.stringMatching(/JSON/i) });
});

import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { moduleWith, useServedApp } from '../factories/app';
import { REPO_ROOT, runNode } from '../factories/cli';

// A plain JSON body (`application/json` in UTF-8, a declared length, no Content-Encoding) is read
// on a short way; every other body through body-parser. A Content-Type with one more parameter
// takes body-parser's way for the same bytes: both must answer every body alike.
const PLAIN = 'application/json';
const THROUGH_BODY_PARSER = 'application/json; charset=utf-8; profile=keel';

const served = useServedApp(moduleWith({}), { bodyLimit: '1kb' }, (app) => {
  app.router.post('/echo', (ctx) => ({ body: ctx.req.body as unknown }));
});

function post(type: string, body: Buffer): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': type, 'content-length': body.length };
    const req = http.request(`${served().url}/echo`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const MALFORMED = { status: 400, json: { error: 'malformed JSON body' } };
const ok = (body: unknown) => ({ status: 201, json: { body } });

test.each([
  ['an object', Buffer.from('{"name":"Ada","qty":2}'), ok({ name: 'Ada', qty: 2 })],
  ['an array', Buffer.from('[1,2,3]'), ok([1, 2, 3])],
  ['an empty body, as {}', Buffer.alloc(0), ok({})],
  ['a body after a byte order mark', Buffer.from('\uFEFF{"a":1}'), ok({ a: 1 })],
  ['an object between whitespace', Buffer.from(' \n\t{"a":1}\r\n '), ok({ a: 1 })],
  ['multi-byte characters', Buffer.from('{"café":"ü€😀"}'), ok({ café: 'ü€😀' })],
  [
    'bytes that are not UTF-8, replaced',
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    ok({ a: '\uFFFD' }),
  ],
  ['a string at the top, refused (strict)', Buffer.from('"text"'), MALFORMED],
  ['a number at the top, refused', Buffer.from('42'), MALFORMED],
  ['true at the top, refused', Buffer.from('true'), MALFORMED],
  ['null at the top, refused', Buffer.from('null'), MALFORMED],
  ['whitespace alone, refused', Buffer.from('  \n '), MALFORMED],
  ['a truncated object, refused', Buffer.from('{"a":'), MALFORMED],
  ['an object with trailing bytes, refused', Buffer.from('{"a":1}x'), MALFORMED],
  [
    'a body over bodyLimit, 413',
    Buffer.from(JSON.stringify({ a: 'x'.repeat(2000) })),
    { status: 413, json: { error: 'request body too large' } },
  ],
])('%s: answered alike on both ways', async (_what, body, expected) => {
  const plain = await post(PLAIN, body);
  expect(plain).toEqual(expected);
  expect(await post(THROUGH_BODY_PARSER, body)).toEqual(plain);
});

test('application/json; charset=UTF-8 is read as plain JSON too', async () => {
  expect(await post('Application/JSON; charset=UTF-8', Buffer.from('{"a":1}'))).toEqual(ok({ a: 1 }));
});

test('a client that leaves in the middle of a plain JSON body leaves the server answering', async () => {
  const { port } = new URL(served().url);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
      );
      setTimeout(() => socket.destroy(), 50);
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  expect(await post(PLAIN, Buffer.from('{"after":true}'))).toEqual(ok({ after: true }));
});

// The compiled framework in a process of its own, where the modules it loaded can be listed.
test('a plain JSON body is read without loading body-parser; another JSON body loads it', async () => {
  const script = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'plain-json.mjs');
  const run = await runNode(script, [], { timeoutMs: 30_000 });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    afterPlain: { body: { a: 1 }, bodyParserLoaded: false },
    afterGzip: { body: { a: 2 }, bodyParserLoaded: true },
  });
});

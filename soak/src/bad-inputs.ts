/** A request made to go wrong, sent through the keep-alive client like any other. */
export interface HttpBadInput {
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** Bytes that break HTTP's framing itself, sent on a connection of their own. */
export interface RawBadInput {
  readonly kind: string;
  readonly bytes: Buffer;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const order = { customer: 'Ada', product: 'Lamp', quantity: 2 };

function json(kind: string, body: unknown, method = 'POST', path = '/api/orders'): HttpBadInput {
  return {
    kind,
    method,
    path,
    headers: JSON_TYPE,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function form(kind: string, body: string, path = '/orders'): HttpBadInput {
  return { kind, method: 'POST', path, headers: FORM_TYPE, body };
}

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Bad input that well-framed HTTP can carry: bodies, paths, numbers, types, encodings. */
export const HTTP_BAD_INPUTS: readonly HttpBadInput[] = [
  json('malformed JSON', '{"customer":'),
  json('JSON array body', '[1,2,3]'),
  json('JSON string body', '"order"'),
  json('JSON nested 200 deep', nested(200)),
  json('__proto__ key', '{"__proto__":{"polluted":true},"customer":"A","product":"B","quantity":1}'),
  json('constructor.prototype key', '{"constructor":{"prototype":{"polluted":true}}}'),
  json('missing fields', {}),
  json('null fields', { customer: null, product: null, quantity: null }),
  json('quantity "NaN"', { ...order, quantity: 'NaN' }),
  json('quantity 1e3', '{"customer":"Ada","product":"Lamp","quantity":1e3}'),
  json('quantity 2.5', { ...order, quantity: 2.5 }),
  json('quantity huge', { ...order, quantity: 1e308 }),
  json('quantity negative', { ...order, quantity: -1 }),
  json('variation selectors', { ...order, customer: 'a\uFE0F'.repeat(80) }),
  json('emoji 80', { ...order, customer: '😀'.repeat(80) }),
  json('81 characters', { ...order, product: 'x'.repeat(81) }),
  json('NUL in body', { ...order, customer: 'Ada\u0000' }),
  json('lone surrogate', '{"customer":"\\ud800","product":"Lamp","quantity":1}'),
  json('object as name', { ...order, customer: { $gt: '' } }),
  json('PUT variation selectors', { ...order, customer: 'a\uFE0F'.repeat(80) }, 'PUT', '/api/orders/1'),
  json('PATCH missing order', order, 'PATCH', '/api/orders/2147483648'),
  form('form 0x10', 'customer=Ada&product=Lamp&quantity=0x10'),
  form('form 1e3', 'customer=Ada&product=Lamp&quantity=1e3'),
  form('form Infinity', 'customer=Ada&product=Lamp&quantity=Infinity'),
  form(
    'form variation selectors',
    `customer=${encodeURIComponent('a\uFE0F'.repeat(80))}&product=L&quantity=1`,
  ),
  form('form NUL', 'customer=Ada%00&product=Lamp&quantity=1'),
  form('form repeated field', 'customer=A&customer=B&product=L&quantity=1'),
  form('form _method TRACE', '_method=TRACE&customer=A', '/orders/1'),
  form('form bad percent', 'customer=%E0%A4%A&product=L&quantity=1'),
  {
    kind: 'gzip body not gzip',
    method: 'POST',
    path: '/api/orders',
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
    body: JSON.stringify(order),
  },
  {
    kind: 'deflate body not deflate',
    method: 'POST',
    path: '/api/orders',
    headers: { ...JSON_TYPE, 'content-encoding': 'deflate' },
    body: JSON.stringify(order),
  },
  {
    kind: 'unknown encoding',
    method: 'POST',
    path: '/api/orders',
    headers: { ...JSON_TYPE, 'content-encoding': 'zstd-x' },
    body: '{}',
  },
  {
    kind: 'unknown charset',
    method: 'POST',
    path: '/api/orders',
    headers: { 'content-type': 'application/json; charset=klingon' },
    body: '{}',
  },
  {
    kind: 'text/plain body',
    method: 'POST',
    path: '/api/orders',
    headers: { 'content-type': 'text/plain' },
    body: 'customer=Ada',
  },
  {
    kind: 'multipart without boundary',
    method: 'POST',
    path: '/api/orders',
    headers: { 'content-type': 'multipart/form-data' },
    body: 'x',
  },
  {
    kind: 'body too large',
    method: 'POST',
    path: '/api/orders',
    headers: JSON_TYPE,
    body: `{"customer":"${'x'.repeat(1_100_000)}"}`,
  },
  { kind: 'bad percent in path', method: 'GET', path: '/api/orders/%E0%A4%A' },
  { kind: 'NUL in path', method: 'GET', path: '/api/orders/%00' },
  { kind: 'id past int4', method: 'GET', path: '/api/orders/99999999999999999999' },
  { kind: 'id hex', method: 'GET', path: '/api/orders/0x10' },
  { kind: 'id negative', method: 'DELETE', path: '/api/orders/-1' },
  { kind: 'page negative', method: 'GET', path: '/api/orders?page=-1' },
  { kind: 'page NaN', method: 'GET', path: '/orders?page=NaN' },
  { kind: 'page array', method: 'GET', path: '/api/orders?page=1&page=2' },
  { kind: 'echoed path', method: 'GET', path: '/<script>alert(1)</script>' },
  { kind: 'long path', method: 'GET', path: `/${'a'.repeat(7000)}` },
  { kind: 'dot-dot path', method: 'GET', path: '/../../etc/passwd' },
  { kind: 'unknown method', method: 'PURGE', path: '/api/orders' },
  { kind: 'OPTIONS', method: 'OPTIONS', path: '/api/orders' },
  { kind: 'DELETE collection', method: 'DELETE', path: '/api/orders' },
  { kind: 'HEAD with body', method: 'HEAD', path: '/api/orders', headers: JSON_TYPE, body: '{}' },
];

function raw(kind: string, text: string): RawBadInput {
  return { kind, bytes: Buffer.from(text, 'latin1') };
}

const HOST = 'Host: 127.0.0.1\r\n';

/** Bad input at the level of HTTP's framing: request lines, headers, lengths, chunks. */
export const RAW_BAD_INPUTS: readonly RawBadInput[] = [
  raw('CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
  raw('empty request line', '\r\n\r\n'),
  raw('binary garbage', '\u0000\u00ff\u0016\u0003\u0001\u0002\u0000\u0001\u0000'),
  raw('TLS hello on plain HTTP', '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003'),
  raw('HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  raw('HTTP/0.9', 'GET /\r\n'),
  raw('HTTP/1.0 no Host', 'GET /api/orders HTTP/1.0\r\n\r\n'),
  raw('HTTP/3.0 version', `GET / HTTP/3.0\r\n${HOST}\r\n`),
  raw('no Host', 'GET /api/orders HTTP/1.1\r\n\r\n'),
  raw('absolute URI', `GET http://evil.example/api/orders HTTP/1.1\r\n${HOST}\r\n`),
  raw('asterisk target', `OPTIONS * HTTP/1.1\r\n${HOST}\r\n`),
  raw('space in path', `GET /api/ orders HTTP/1.1\r\n${HOST}\r\n`),
  raw('bare LF lines', 'GET /api/orders HTTP/1.1\nHost: 127.0.0.1\n\n'),
  raw('header without colon', `GET / HTTP/1.1\r\n${HOST}Broken header\r\n\r\n`),
  raw('header name with space', `GET / HTTP/1.1\r\n${HOST}Bad Name: x\r\n\r\n`),
  raw('obs-fold header', `GET / HTTP/1.1\r\n${HOST}X-A: a\r\n b\r\n\r\n`),
  raw('CR in header value', `GET / HTTP/1.1\r\n${HOST}X-A: a\rb\r\n\r\n`),
  raw('header 40 KB', `GET / HTTP/1.1\r\n${HOST}X-Big: ${'a'.repeat(40_000)}\r\n\r\n`),
  raw('2000 headers', `GET / HTTP/1.1\r\n${HOST}${'X-A: a\r\n'.repeat(2000)}\r\n`),
  raw(
    'two Content-Lengths',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
  ),
  raw(
    'Content-Length and chunked',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  ),
  raw('negative Content-Length', `POST /api/orders HTTP/1.1\r\n${HOST}Content-Length: -1\r\n\r\n`),
  raw(
    'huge Content-Length',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n{}`,
  ),
  raw(
    'body shorter than length',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}`,
  ),
  raw(
    'bad chunk size',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
  ),
  raw(
    'chunked cut short',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{}`,
  ),
  raw('unknown Transfer-Encoding', `POST /api/orders HTTP/1.1\r\n${HOST}Transfer-Encoding: gzip\r\n\r\n{}`),
  raw(
    'pipelined smuggle',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n${HOST}\r\n`,
  ),
  raw(
    'Expect 100-continue then nothing',
    `POST /api/orders HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n`,
  ),
  raw(
    'upgrade to websocket',
    `GET /api/orders HTTP/1.1\r\n${HOST}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
  ),
];

import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import { type ErrorsOption, type OpenApiDocument } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { REAL_WORLD_SCHEMA, realWorld, serveErrorShapes, type Served } from '../factories/error-shape-app';
import { captureLog } from '../factories/log';
import { schemaValidator } from '../factories/openapi';

jest.setTimeout(30_000);

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly body: unknown;
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

/** What the server answers `text` sent as is on a connection of its own, which it closes. */
function askRaw(url: string, text: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject).on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]),
        type: /^content-type: (.*)$/im.exec(head)?.[1] ?? null,
        body: JSON.parse(body) as unknown,
      });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
}

/** Requests Node hands keel as a bare socket: what keel writes on it by hand. */
const RAW_CONDITIONS = [
  { name: 'a broken request line', text: 'GET /x HTTP/9\r\n\r\n', status: 400, message: 'malformed request' },
  {
    name: 'headers over the limit',
    text: `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
    status: 431,
    message: 'request headers too large',
  },
  {
    name: 'CONNECT',
    text: 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n',
    status: 405,
    message: 'method CONNECT not allowed',
  },
];

const json = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

/** Each condition: how to meet it, and what keel says of it. */
const CONDITIONS: readonly {
  readonly name: string;
  readonly path: string;
  readonly init?: RequestInit;
  readonly status: number;
  readonly message: string;
  readonly fields?: Record<string, string[]>;
}[] = [
  {
    name: 'malformed JSON',
    path: '/things',
    init: json('{"user":'),
    status: 400,
    message: 'malformed JSON body',
  },
  {
    name: 'a body over the limit',
    path: '/things',
    init: json(`"${'x'.repeat(2 * 1024 * 1024)}"`),
    status: 413,
    message: 'request body too large',
  },
  { name: 'no route', path: '/nowhere', status: 404, message: 'no route for GET /nowhere' },
  { name: 'ctx.error', path: '/things/missing', status: 404, message: 'thing not found' },
  {
    name: 'a method the path lacks',
    path: '/things',
    init: { method: 'DELETE' },
    status: 405,
    message: 'method DELETE not allowed on /things',
  },
  { name: 'a handler’s 406', path: '/things/picky', status: 406, message: 'only JSON here' },
  {
    name: 'a body of another type',
    path: '/things',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' },
    status: 415,
    message: 'unsupported content type "text/plain": send JSON or a form',
  },
  {
    name: 'a validation failure',
    path: '/things',
    init: json('{"email":"nope"}'),
    status: 422,
    message: 'validation failed',
    fields: { email: ['email must be an email'] },
  },
  { name: 'no credentials', path: '/me', status: 401, message: 'unauthenticated' },
  { name: 'a guard’s refusal', path: '/things/guarded', status: 403, message: 'forbidden' },
  { name: 'a spent rate limit', path: '/things/limited', status: 429, message: 'too many requests' },
  { name: 'the database away', path: '/things/stored', status: 503, message: 'database not connected' },
  { name: 'a thrown Error', path: '/things/boom', status: 500, message: 'internal server error' },
];

const SHAPES: readonly {
  readonly name: string;
  readonly option: ErrorsOption;
  readonly type: string;
  readonly body: (status: number, message: string, fields?: Record<string, string[]>) => unknown;
}[] = [
  {
    name: "'problem'",
    option: 'problem',
    type: 'application/problem+json; charset=utf-8',
    body: (status, message, fields) => ({
      type: 'about:blank',
      title: STATUS_CODES[status],
      status,
      detail: message,
      ...(fields ? { errors: fields } : {}),
    }),
  },
  {
    name: 'a function (RealWorld’s shape)',
    option: { format: realWorld, schema: REAL_WORLD_SCHEMA },
    type: 'application/json; charset=utf-8',
    body: (_status, message, fields) => ({ errors: fields ?? { body: [message] } }),
  },
];

describe.each(SHAPES)('errors: $name', (shape) => {
  let served: Served;
  let document: OpenApiDocument;
  beforeAll(async () => {
    served = await serveErrorShapes(shape.option);
    document = (await (await fetch(`${served.url}/openapi.json`)).json()) as OpenApiDocument;
  });
  afterAll(() => served.app.close());

  test.each(CONDITIONS)('$name answers $status in the shape', async (condition) => {
    if (condition.status === 429) expect((await ask(`${served.url}${condition.path}`)).status).toBe(200);
    const answer = await ask(`${served.url}${condition.path}`, condition.init);

    expect(answer).toEqual({
      status: condition.status,
      type: shape.type,
      body: shape.body(condition.status, condition.message, condition.fields),
    });
    // The document's schema for the answer describes it.
    const schemaName = condition.status === 422 ? 'ValidationError' : 'Error';
    const validate = schemaValidator(document)({ $ref: `#/components/schemas/${schemaName}` });
    expect({ valid: validate(answer.body), errors: validate.errors }).toEqual({ valid: true, errors: null });
  });

  test.each(RAW_CONDITIONS)('$name answers $status in the shape, written by hand', async (condition) => {
    expect(await askRaw(served.url, condition.text)).toEqual({
      status: condition.status,
      type: shape.type,
      body: shape.body(condition.status, condition.message),
    });
  });

  test('the document states the shape’s media type for each error answer', () => {
    const mediaType = shape.type.split(';')[0] as string;
    const responses = document.paths['/things']?.post?.responses as Record<string, { content?: object }>;
    expect(Object.keys(responses['422']?.content ?? {})).toEqual([mediaType]);
    expect(Object.keys(responses['413']?.content ?? {})).toEqual([mediaType]);
  });

  test('a shed request answers 503 overloaded in the shape', async () => {
    const shedding = await serveErrorShapes(shape.option, { shedding: true });
    try {
      const answer = await ask(`${shedding.url}/things`);
      expect(answer).toEqual({ status: 503, type: shape.type, body: shape.body(503, 'overloaded') });
    } finally {
      await shedding.app.close();
    }
  });
});

test('a format that throws is logged, and the answer goes out in keel’s shape', async () => {
  const log = captureLog();
  const served = await serveErrorShapes(
    () => {
      throw new Error('a broken format');
    },
    { logger: log.logger },
  );
  try {
    expect(await ask(`${served.url}/nowhere`)).toEqual({
      status: 404,
      type: 'application/json; charset=utf-8',
      body: { error: 'no route for GET /nowhere' },
    });
    expect(
      log
        .entries()
        .filter(
          (entry) =>
            entry.msg === 'the errors format failed: answered in keel’s shape' && entry.status === 404,
        ),
    ).toHaveLength(1);
  } finally {
    await served.app.close();
  }
});

test('a format reads the catalogue’s code and the status’s title, and its content type goes out', async () => {
  const served = await serveErrorShapes({
    format: ({ code, title, status }) => ({ code, title, status }),
    contentType: 'application/vnd.api+json',
  });
  try {
    expect(await ask(`${served.url}/things`, json('{'))).toEqual({
      status: 400,
      type: 'application/vnd.api+json',
      body: { code: 'E_MALFORMED_JSON', title: 'Bad Request', status: 400 },
    });
  } finally {
    await served.app.close();
  }
});

test.each([
  ['json', /E_INVALID_OPTION: .*errors.*'keel', 'problem'/],
  [{ format: 'x' }, /E_INVALID_OPTION: .*errors/],
  [{ format: () => ({}), contentType: 'json' }, /E_INVALID_OPTION: .*errors\.contentType/],
])('errors %j is refused at boot', async (option, message) => {
  await expect(bootApp(moduleWith({}), { errors: option as ErrorsOption })).rejects.toThrow(message);
});

import net from 'node:net';
import type { Application, ApplicationOptions } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { HOST } from '../factories/gates';
import { within } from '../factories/http-client';

// `endBodilessRequests` hands a request without Content-Length or Transfer-Encoding over with its
// body stream ended, on the Nodes whose server has `optimizeEmptyRequests` (24.12 and later): what
// each request reaches the handler with must not change, only what a bodiless one costs.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const nodeEndsBodilessRequests = major > 24 || (major === 24 && minor >= 12);

const apps: Application[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
});

async function listening(options: ApplicationOptions = {}): Promise<number> {
  const app = await bootApp(moduleWith({}), { handleSignals: false, ...options });
  app.router
    .get('/ended', (ctx) => ({ readableEnded: ctx.req.readableEnded }))
    .get('/echo', (ctx) => ({ method: 'GET', body: ctx.req.body ?? null }))
    .post('/echo', (ctx) => ({ method: 'POST', body: ctx.req.body ?? null }));
  apps.push(app);
  return (await app.listen(0, HOST)).port;
}

/** Writes `requests` on one connection and resolves with the bodies of the first `count` answers. */
async function answersOn(port: number, requests: string, count: number): Promise<string[]> {
  const socket = net.connect(port, HOST);
  let received = '';
  const bodies = (): string[] =>
    [...received.matchAll(/\r\n\r\n(\{[^]*?\})(?=HTTP\/1\.1 |$)/g)].map((match) => match[1] as string);
  socket.setEncoding('latin1');
  const done = new Promise<void>((resolve) => {
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (bodies().length >= count) resolve();
    });
  });
  socket.write(requests);
  try {
    await within(done, 5000, `${count} answers`);
    return bodies();
  } finally {
    socket.destroy();
  }
}

const request = (method: string, path: string, headers = '', body = ''): string =>
  `${method} ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${headers}\r\n${body}`;

test('a bodiless GET reaches its handler with its body stream ended, on the Nodes that can end it', async () => {
  const port = await listening();
  const [answer] = await answersOn(port, request('GET', '/ended'), 1);
  expect(JSON.parse(answer as string)).toEqual({ readableEnded: nodeEndsBodilessRequests });
});

test('endBodilessRequests: false leaves a bodiless GET its stream, for middleware that waits for its end', async () => {
  const port = await listening({ endBodilessRequests: false });
  const app = apps[0] as Application;
  // Middleware that reads every request's body to its end before passing it on.
  app.express.use((req, _res, next) => {
    req.on('data', () => undefined).on('end', () => next());
  });
  const [answer] = await answersOn(port, request('GET', '/ended'), 1);
  // The stream ended while the middleware read it: the handler sees it ended, as Node's default has it.
  expect(JSON.parse(answer as string)).toEqual({ readableEnded: true });
});

test('bodiless and framed requests on one connection each reach the handler with their own body', async () => {
  const port = await listening();
  const json = 'Content-Type: application/json\r\n';
  const answers = await answersOn(
    port,
    request('GET', '/echo') +
      request('POST', '/echo', json) + // neither header: no body, and no wait for one
      request(
        'POST',
        '/echo',
        `${json}Transfer-Encoding: chunked\r\n`,
        '9\r\n{"n":"ch"\r\n1\r\n}\r\n0\r\n\r\n',
      ) +
      request('GET', '/echo', `${json}Content-Length: 10\r\n`, '{"n":"gl"}') + // a GET with a body
      request('POST', '/echo', `${json}Content-Length: 10\r\n`, '{"n":"cl"}'),
    5,
  );
  expect(answers.map((answer) => JSON.parse(answer) as unknown)).toEqual([
    { method: 'GET', body: null },
    { method: 'POST', body: null },
    { method: 'POST', body: { n: 'ch' } },
    { method: 'GET', body: { n: 'gl' } },
    { method: 'POST', body: { n: 'cl' } },
  ]);
});

test('endBodilessRequests of another kind is refused at boot', async () => {
  await expect(bootApp(moduleWith({}), { endBodilessRequests: 'yes' as unknown as boolean })).rejects.toThrow(
    /E_INVALID_OPTION: the option endBodilessRequests is .*: expected true or false/,
  );
});

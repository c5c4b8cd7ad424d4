import http from 'node:http';
import { HealthModule, Module, type Application, type ApplicationOptions } from 'keel';
import { createTestingApplication } from 'keel/testing';
import { bootApp } from '../factories/app';
import { heldOrderRoutes } from '../factories/order-routes';
import { HOST } from '../factories/gates';
import {
  captureLog,
  DEBUG_LEVEL,
  ERROR_LEVEL,
  INFO_LEVEL,
  type LogCapture,
  type LogEntry,
} from '../factories/log';

const { OrderController, held, entered } = heldOrderRoutes();

@Module({ imports: [HealthModule.forRoot()], controllers: [OrderController] })
class AppModule {}

let app: Application;
let log: LogCapture;
let url: string;

async function start(options: ApplicationOptions = {}): Promise<void> {
  log = captureLog('debug');
  app = await bootApp(AppModule, { logger: log.logger, ...options });
  url = (await app.listen(0, HOST)).url;
}

afterEach(() => app.close());

const isAccessLine = (entry: LogEntry): boolean => entry.msg === 'request';

function accessLineOf(requestId: string): Promise<LogEntry> {
  return log.next((entry) => isAccessLine(entry) && entry.requestId === requestId, {
    what: `the access line of ${requestId}`,
  });
}

describe('with the access log on (the default)', () => {
  beforeEach(() => start());

  test('one line per request: the route pattern, the path without its query, the status, the time, the size, the id', async () => {
    const res = await fetch(`${url}/orders/7?token=secret`, { headers: { 'X-Request-Id': 'show-7' } });
    const body = await res.text();
    const line = await accessLineOf('show-7');
    expect(line).toMatchObject({
      level: INFO_LEVEL,
      msg: 'request',
      method: 'GET',
      path: '/orders/7',
      route: '/orders/:id',
      status: 200,
      requestId: 'show-7',
    });
    expect(line.ms).toBeGreaterThan(0);
    // The whole answer as written, headers included: at least its body.
    expect(line.bytes).toBeGreaterThan(Buffer.byteLength(body));
    expect(line).not.toHaveProperty('aborted');
    expect(log.text()).not.toContain('secret');
    await app.close();
    expect(log.entries().filter(isAccessLine)).toHaveLength(1);
  });

  test('each request on a kept-alive connection gets its own line', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (const id of ['k1', 'k2', 'k3']) await request(`${url}/orders/${id}`, { agent, id });
    agent.destroy();
    const lines = await Promise.all(['k1', 'k2', 'k3'].map(accessLineOf));
    expect(lines.map((line) => line.path)).toEqual(['/orders/k1', '/orders/k2', '/orders/k3']);
    // Each counts its own answer, not the connection's total so far.
    const [first, , third] = lines;
    expect(third?.bytes).toBe(first?.bytes);
  });

  test('a request no route matched has the route null', async () => {
    await fetch(`${url}/nowhere/7`, { headers: { 'X-Request-Id': 'lost' } });
    expect(await accessLineOf('lost')).toMatchObject({ level: INFO_LEVEL, route: null, status: 404 });
  });

  test('a 5xx is logged at error level', async () => {
    await fetch(`${url}/orders/broken/1`, { headers: { 'X-Request-Id': 'broken' } });
    expect(await accessLineOf('broken')).toMatchObject({
      level: ERROR_LEVEL,
      route: '/orders/broken/:id',
      status: 503,
    });
  });

  test('the health probes are logged at debug, not info, whatever they answer', async () => {
    await fetch(`${url}/health`, { headers: { 'X-Request-Id': 'live' } });
    // No DataSource: readiness answers 503, and a probe every few seconds still is no error.
    await fetch(`${url}/health/ready`, { headers: { 'X-Request-Id': 'ready' } });
    expect(await accessLineOf('live')).toMatchObject({ level: DEBUG_LEVEL, route: '/health', status: 200 });
    expect(await accessLineOf('ready')).toMatchObject({
      level: DEBUG_LEVEL,
      route: '/health/ready',
      status: 503,
    });
  });

  test('a request whose client left before the answer is logged as aborted', async () => {
    const req = http.get(`${url}/orders/slow/1`, { agent: false, headers: { 'X-Request-Id': 'gone' } });
    req.on('error', () => undefined);
    await entered.opened;
    req.destroy();
    const line = await accessLineOf('gone');
    expect(line).toMatchObject({
      level: INFO_LEVEL,
      route: '/orders/slow/:id',
      aborted: true,
      status: null,
    });
    held.open();
  });
});

describe('accessLog: false', () => {
  beforeEach(() => start({ accessLog: false }));

  test('writes no access line, and the other lines still go out', async () => {
    const res = await fetch(`${url}/orders/broken/1`);
    expect(res.status).toBe(503);
    // Once closed, every request has ended, and a line of the access log would have been written.
    await app.close();
    expect(log.entries().some((entry) => entry.msg === 'request failed')).toBe(true);
    expect(log.entries().filter(isAccessLine)).toEqual([]);
  });
});

test('an in-process request is logged as answered, with no bytes to count', async () => {
  log = captureLog('debug');
  const testing = await createTestingApplication(AppModule).boot({ logger: log.logger });
  app = testing;
  await testing.inject({ url: '/orders/7', headers: { 'x-request-id': 'in-process' } });
  const line = await accessLineOf('in-process');
  expect(line).toMatchObject({ route: '/orders/:id', status: 200, bytes: null });
  expect(line).not.toHaveProperty('aborted');
});

test('an accessLog that is not a boolean is a boot error', async () => {
  await expect(bootApp(AppModule, { accessLog: 'yes' as unknown as boolean })).rejects.toThrow(
    'the option accessLog is "yes": expected true or false.',
  );
});

function request(target: string, { agent, id }: { agent: http.Agent; id: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(target, { agent, headers: { 'X-Request-Id': id } }, (res) => {
        res.resume().on('end', resolve);
      })
      .on('error', reject);
  });
}

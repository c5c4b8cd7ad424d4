import type { NextFunction, Request, Response } from 'express';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Controller,
  Get,
  Injectable,
  Post,
  currentRequest,
  type Application,
  type Context,
  type CurrentRequest,
} from 'keel';
import { once } from 'node:events';
import net from 'node:net';
import { createTestingApplication } from 'keel/testing';
import { bootApp, moduleWith, useServedApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { GENERATED_REQUEST_ID } from '../factories/request-ids';

const GENERATED = GENERATED_REQUEST_ID;

/** A service that knows nothing of the context: what it sees of the request comes from keel. */
@Injectable()
class Audit {
  now(): CurrentRequest | undefined {
    return currentRequest();
  }

  async afterAwait(): Promise<string | undefined> {
    await sleep(1);
    return currentRequest()?.requestId;
  }

  inTimeout(): Promise<string | undefined> {
    return new Promise((resolve) => setTimeout(() => resolve(currentRequest()?.requestId), 1));
  }
}

@Controller('ids')
class IdController {
  constructor(private readonly audit: Audit) {}

  @Get()
  async show(ctx: Context) {
    const seen = this.audit.now();
    return {
      requestId: ctx.requestId,
      seen: seen?.requestId,
      route: seen?.route?.path,
      afterAwait: await this.audit.afterAwait(),
      inTimeout: await this.audit.inTimeout(),
    };
  }

  // The JSON body is read from the connection's events: the handler must still be in the request.
  @Post()
  create(ctx: Context) {
    return { requestId: ctx.requestId, seen: this.audit.now()?.requestId, body: ctx.req.body as unknown };
  }
}

const routeSeenByMiddleware: (string | undefined)[] = [];

function prepare(app: Application): void {
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    routeSeenByMiddleware.push(currentRequest()?.route?.path);
    next();
  });
  // Reads a text body by hand, as a webhook's signature check does, and goes on from the stream's
  // last event: an event of the connection, not of the request.
  app.use((req: Request, _res: Response, next: NextFunction) => {
    if (req.headers['content-type'] !== 'text/plain') return next();
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      req.body = { text };
      next();
    });
  });
}

const served = useServedApp(moduleWith({ controllers: [IdController], providers: [Audit] }), {}, prepare);

interface Seen {
  readonly requestId: string;
  readonly seen?: string;
  readonly route?: string;
  readonly afterAwait?: string;
  readonly inTimeout?: string;
  readonly body?: unknown;
}

async function getIds(headers: Record<string, string> = {}): Promise<{ header: string | null; seen: Seen }> {
  const res = await fetch(`${served().url}/ids`, { headers });
  expect(res.status).toBe(200);
  return { header: res.headers.get('x-request-id'), seen: (await res.json()) as Seen };
}

describe('X-Request-Id', () => {
  test('a valid incoming id is echoed, and is ctx.requestId', async () => {
    const id = 'edge-7f3a:01/b+c=d@lb.example_1';
    const { header, seen } = await getIds({ 'X-Request-Id': id });
    expect(header).toBe(id);
    expect(seen.requestId).toBe(id);
  });

  test('an id of exactly 200 characters is kept', async () => {
    const id = 'a'.repeat(200);
    expect((await getIds({ 'X-Request-Id': id })).header).toBe(id);
  });

  test.each([
    ['over-long', 'a'.repeat(201)],
    ['with a space', 'edge 7f3a'],
    ['with a quote', 'edge"7f3a'],
    ['with markup', '<script>'],
    ['with a comma (two ids folded)', 'a,b'],
  ])('an invalid incoming id (%s) is replaced by a generated one', async (_case, id) => {
    const { header, seen } = await getIds({ 'X-Request-Id': id });
    expect(header).toMatch(GENERATED);
    expect(seen.requestId).toBe(header);
  });

  test('two requests without an id get different ones', async () => {
    const [first, second] = await Promise.all([getIds(), getIds()]);
    expect(first.header).toMatch(GENERATED);
    expect(second.header).toMatch(GENERATED);
    expect(first.header).not.toBe(second.header);
    // One process, one prefix; the counts differ.
    expect(GENERATED.exec(first.header ?? '')?.[1]).toBe(GENERATED.exec(second.header ?? '')?.[1]);
  });

  test('each process draws its own random prefix: ids of two replicas do not collide', () => {
    const prefixes = new Set<string>();
    for (let load = 0; load < 20; load++) {
      jest.isolateModules(() => {
        const { requestIdFrom } =
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, as a new process has
          require('../../src/http/request-id') as typeof import('../../src/http/request-id');
        const id = requestIdFrom(undefined);
        expect(id).toMatch(GENERATED);
        prefixes.add(GENERATED.exec(id)?.[1] ?? '');
      });
    }
    expect(prefixes.size).toBe(20);
  });

  // The notation is the point (src/http/request-id.ts says why): a decimal count would also match
  // GENERATED, and would keep every request's id alive in V8's number-to-string cache under load.
  test("a process's generated ids count 1, 2, … in base 36", () => {
    jest.isolateModules(() => {
      const { requestIdFrom } =
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh count, as a new process has
        require('../../src/http/request-id') as typeof import('../../src/http/request-id');
      // Read back in base 36, a decimal count goes wrong at its tenth id ('10' is 36).
      const counts = Array.from({ length: 40 }, () =>
        parseInt(GENERATED.exec(requestIdFrom(undefined))?.[2] ?? '', 36),
      );
      expect(counts).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    });
  });

  test('an answer no route gives carries the id too', async () => {
    const res = await fetch(`${served().url}/nowhere`, { headers: { 'X-Request-Id': 'lost-1' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('lost-1');
  });
});

describe('currentRequest()', () => {
  test("gives a service the request's id and route, with no ctx passed, across an await and a setTimeout", async () => {
    const { header, seen } = await getIds({ 'X-Request-Id': 'svc-1' });
    expect(header).toBe('svc-1');
    expect(seen).toMatchObject({
      seen: 'svc-1',
      route: '/ids',
      afterAwait: 'svc-1',
      inTimeout: 'svc-1',
    });
  });

  test('keeps each of two concurrent requests apart', async () => {
    const [first, second] = await Promise.all([
      getIds({ 'X-Request-Id': 'one' }),
      getIds({ 'X-Request-Id': 'two' }),
    ]);
    expect(first.seen).toMatchObject({ seen: 'one', afterAwait: 'one', inTimeout: 'one' });
    expect(second.seen).toMatchObject({ seen: 'two', afterAwait: 'two', inTimeout: 'two' });
  });

  test('still holds in a handler reached after a body that arrived later', async () => {
    // With `Expect: 100-continue` the client sends the body only once the server has taken the
    // request: the body's events come from the connection, outside the request's first step.
    const url = `${served().url}/ids`;
    const json = await postAfterContinue(url, { id: 'json-1', type: 'application/json' }, '{"n":1}');
    expect(JSON.parse(json)).toEqual({ requestId: 'json-1', seen: 'json-1', body: { n: 1 } });
    const text = await postAfterContinue(url, { id: 'text-1', type: 'text/plain' }, 'signed');
    expect(JSON.parse(text)).toEqual({ requestId: 'text-1', seen: 'text-1', body: { text: 'signed' } });
  });

  test('has no route yet in middleware that runs before routing', async () => {
    routeSeenByMiddleware.length = 0;
    await getIds();
    expect(routeSeenByMiddleware).toEqual([undefined]);
  });

  test('is undefined outside a request', () => {
    expect(currentRequest()).toBeUndefined();
  });

  test('keeps apart two requests pipelined on one connection, read from one packet', async () => {
    const { port } = new URL(served().url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    const request = (id: string) => `GET /ids HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\n\r\n`;
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.write(request('pipe-1') + request('pipe-2'));
    await eventually(() => received.split('HTTP/1.1 200').length === 3, { within: 5_000 });
    socket.destroy();
    const bodies = [...received.matchAll(/\{"requestId".*?\}(?=HTTP|$)/g)].map(
      ([body]) => JSON.parse(body) as Seen,
    );
    expect(bodies).toEqual([
      { requestId: 'pipe-1', seen: 'pipe-1', route: '/ids', afterAwait: 'pipe-1', inTimeout: 'pipe-1' },
      { requestId: 'pipe-2', seen: 'pipe-2', route: '/ids', afterAwait: 'pipe-2', inTimeout: 'pipe-2' },
    ]);
  });

  test('an in-process request leaves no request behind in its caller', async () => {
    const app = await createTestingApplication(
      moduleWith({ controllers: [IdController], providers: [Audit] }),
    ).boot({
      logger: false,
    });
    try {
      const res = await app.inject({ url: '/ids', headers: { 'x-request-id': 'inject-1' } });
      expect(res.json()).toMatchObject({ seen: 'inject-1', afterAwait: 'inject-1' });
      expect(currentRequest()).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('requestIdHeader', () => {
  const renamed = useServedApp(moduleWith({ controllers: [IdController], providers: [Audit] }), {
    requestIdHeader: 'X-Correlation-Id',
  });
  const off = useServedApp(moduleWith({ controllers: [IdController], providers: [Audit] }), {
    requestIdHeader: false,
  });

  test('names the header the id is read from and answered in', async () => {
    const res = await fetch(`${renamed().url}/ids`, {
      headers: { 'X-Correlation-Id': 'corr-1', 'X-Request-Id': 'ignored' },
    });
    expect(res.headers.get('x-correlation-id')).toBe('corr-1');
    expect(res.headers.get('x-request-id')).toBeNull();
    expect(((await res.json()) as Seen).requestId).toBe('corr-1');
  });

  test('false: the header is neither read nor written, and the request still has an id', async () => {
    const res = await fetch(`${off().url}/ids`, { headers: { 'X-Request-Id': 'ignored' } });
    expect(res.headers.get('x-request-id')).toBeNull();
    const seen = (await res.json()) as Seen;
    expect(seen.requestId).toMatch(GENERATED);
    expect(seen.seen).toBe(seen.requestId);
  });
});

test('a requestIdHeader that is no header name is a boot error', async () => {
  await expect(bootApp(moduleWith({}), { requestIdHeader: 'request id' })).rejects.toThrow(
    'the option requestIdHeader is "request id": expected a header name, or false.',
  );
});

function postAfterContinue(
  url: string,
  { id, type }: { id: string; type: string },
  body: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { 'X-Request-Id': id, 'Content-Type': type, Expect: '100-continue' },
    });
    req.on('continue', () => req.end(body));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

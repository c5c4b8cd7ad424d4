import path from 'node:path';
import {
  createTestingApplication,
  type InjectOptions,
  type InjectResponse,
  type TestingApplication,
} from 'keel/testing';
import { AppModule } from '../../sample/src/app.module';
import { SAMPLE_API_TOKEN, scratchDatabase } from './sample';
import { isPostgresServer, postgresUrl } from './test-databases';

const SAMPLE_VIEWS = path.join(__dirname, '..', '..', 'sample', 'views');

/** `fetch`'s shape, answered in-process by the application: no socket, the whole pipeline. */
export type InProcessFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Registers a `beforeAll` that boots the sample's `AppModule` in-process with `createTestingApplication`
 * (on a database of its own on the PostgreSQL server, else on the suite's embedded one) and waits
 * until its migrations have run, and an `afterAll` that closes it; returns a `fetch` that goes
 * through `app.inject`.
 */
export function useSampleApp(): InProcessFetch {
  let app: TestingApplication | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const scratch = isPostgresServer() ? await scratchDatabase(postgresUrl()) : undefined;
    drop = scratch?.drop;
    const url = scratch?.url ?? postgresUrl();
    const database = { url, description: 'the test database' };
    app = await createTestingApplication(
      AppModule.on(database, {
        apiToken: SAMPLE_API_TOKEN,
        sessionSecret: 'in-process test secret',
        exposesDatabaseReason: true,
        metricsPort: 0,
      }),
    ).boot({
      logger: false,
      views: SAMPLE_VIEWS,
    });
    await waitUntilReady(app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await drop?.();
  }, 30_000);

  return async (target, init = {}) => {
    if (!app) throw new Error('the sample did not boot: see the beforeAll error');
    const { body, contentType } = payloadOf(init.body);
    const headers = new Headers(init.headers);
    if (contentType && !headers.has('content-type')) headers.set('content-type', contentType);
    const res = await app.inject({
      method: (init.method ?? 'GET') as InjectOptions['method'],
      url: target,
      headers: Object.fromEntries(headers),
      payload: body,
    });
    return toResponse(res);
  };
}

async function waitUntilReady(app: TestingApplication): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const res = await app.inject('/health/ready');
    if (res.statusCode === 200) return;
    if (Date.now() > deadline) throw new Error(`the sample never became ready: ${res.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The bodies the sample's tests send, with the Content-Type fetch would give them.
function payloadOf(body: RequestInit['body']): { body?: string; contentType?: string } {
  if (body === undefined || body === null) return {};
  if (body instanceof URLSearchParams)
    return { body: body.toString(), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (typeof body === 'string') return { body, contentType: 'text/plain;charset=UTF-8' };
  throw new Error('useSampleApp sends string and URLSearchParams bodies only');
}

const NO_BODY = new Set([204, 304]);

function toResponse(res: InjectResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  }
  const body = NO_BODY.has(res.statusCode) ? null : res.rawPayload;
  return new Response(body, { status: res.statusCode, headers });
}

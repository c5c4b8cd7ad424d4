import path from 'node:path';
import {
  createTestingApplication,
  type InjectOptions,
  type InjectResponse,
  type TestingApplication,
} from 'keel/testing';
import { AppModule } from '../../sample/src/app.module';
import { SampleConfig } from '../../sample/src/config/sample-config';
import { SAMPLE_OPERATOR } from './sample';
import { isPostgresServer, postgresUrl } from './test-databases';

const SAMPLE_VIEWS = path.join(__dirname, '..', '..', 'sample', 'views');

/** `fetch`'s shape, answered in-process by the application: no socket, the whole pipeline. */
export type InProcessFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Registers a `beforeEach` that boots the sample's `AppModule` in-process with `createTestingApplication`
 * on a database of its own (`withTestDatabase`: on the PostgreSQL server, else in memory), its
 * migrations applied, and an `afterEach` that closes it, dropping the database: each test starts
 * with no orders. Returns a `fetch` that goes through `app.inject`.
 */
export function useSampleApp(): InProcessFetch {
  let app: TestingApplication | undefined;

  beforeEach(async () => {
    app = await createTestingApplication(AppModule)
      // The configuration a deployment would give, in place of the environment's; the test
      // database replaces the embedded one, which then never starts.
      .overrideProvider(SampleConfig)
      .useValue(
        Object.assign(new SampleConfig(), {
          ADMIN_EMAIL: SAMPLE_OPERATOR.email,
          ADMIN_PASSWORD: SAMPLE_OPERATOR.password,
          LOGINS_PER_MINUTE: 1000,
          SESSION_SECRET: 'in-process test secret',
          METRICS_PORT: 0,
        }),
      )
      .withTestDatabase({ url: isPostgresServer() ? postgresUrl() : 'memory://' })
      .boot({ logger: false, views: SAMPLE_VIEWS });
  }, 60_000);

  afterEach(async () => {
    await app?.close();
    app = undefined;
  }, 30_000);

  return async (target, init = {}) => {
    if (!app) throw new Error('the sample did not boot: see the beforeEach error');
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

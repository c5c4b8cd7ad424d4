import type { ApplicationOptions, ModuleImport } from 'keel';
import { Module, createApplication, type Application, type Class } from 'keel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { requestListenerOf } from '../../src/application/application';

/** The views directory the HTTP tests render from. */
export const FIXTURE_VIEWS = path.join(__dirname, '..', 'fixtures', 'views');

/** A root module declaring `controllers` and `providers`, for tests that need one quickly. */
export function moduleWith(metadata: { controllers?: Class[]; providers?: Class[] }): Class {
  @Module(metadata)
  class TestModule {}
  return TestModule;
}

/** Boots an application silently against the fixture views. */
export function bootApp(root: ModuleImport, options: ApplicationOptions = {}): Promise<Application> {
  return createApplication(root, { logger: false, views: FIXTURE_VIEWS, ...options });
}

/**
 * The application's request listener, for supertest and hand-made servers: the whole pipeline,
 * on requests and responses that keel's own server did not create.
 */
export function listenerOf(app: Application): (req: IncomingMessage, res: ServerResponse) => void {
  return requestListenerOf(app);
}

/** An application the tests of a file share, listening on a free port of 127.0.0.1. */
export interface ServedApp {
  readonly app: Application;
  readonly url: string;
}

/**
 * Registers a `beforeAll` that boots `root` (then runs `prepare`, e.g. to add middleware) and
 * listens on a free port, and an `afterAll` that closes it; returns a getter for the running app.
 */
export function useServedApp(
  root: ModuleImport,
  options: ApplicationOptions = {},
  prepare: (app: Application) => void = () => undefined,
): () => ServedApp {
  let served: ServedApp | undefined;
  beforeAll(async () => {
    const app = await bootApp(root, options);
    prepare(app);
    const { url } = await app.listen(0, '127.0.0.1');
    served = { app, url };
  });
  afterAll(() => served?.app.close());
  return () => {
    if (!served) throw new Error('the application did not start: see the beforeAll error');
    return served;
  };
}

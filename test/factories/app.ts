import type { ApplicationOptions, ModuleImport } from 'keel';
import { Module, createApplication, type Application, type Class } from 'keel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

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
  return (req, res) => app.handleRequest(req, res);
}

import type { ApplicationOptions, ModuleImport } from 'keel';
import { Module, createApplication, type Application, type Class } from 'keel';
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

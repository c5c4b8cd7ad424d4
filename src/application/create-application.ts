import { Application } from './application';
import { bootParts } from './boot';
import type { ApplicationOptions } from './options';
import type { ModuleImport } from '../container/module-definition';

/**
 * Boots an application from its root module: builds the container (creating every provider),
 * compiles the controllers' routes, runs the `onModuleInit` hooks, and returns the
 * {@link Application}; the `onApplicationBootstrap` hooks follow when it serves (see `run`).
 * Boot errors (unknown dependency, cycle, route conflict, missing action) reject here.
 *
 * @example
 * const app = await createApplication(AppModule, { views: 'views', logger: false });
 */
export async function createApplication(
  root: ModuleImport,
  options: ApplicationOptions = {},
): Promise<Application> {
  const parts = await bootParts(root, options);
  parts.bootstrapHooks.startAfterBoot();
  return new Application(parts);
}

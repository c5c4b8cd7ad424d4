import type * as ApplicationCommand from '../cli/application-command';
import type * as CommandConnection from '../cli/command-connection';
import type * as JobsInspection from '../cli/jobs-inspection';
import type { Container } from '../container/container';
import { OpenApiErrors } from '../errors/openapi-errors';
import { OPENAPI_DOCUMENT } from '../openapi/openapi-token';
import type { Router } from '../routing/router';

/** What a command of the application's entry point reads from the booted application. */
export interface CommandSources {
  readonly router: Router;
  readonly container: Container;
  /** Closes the application once the command has run. */
  readonly close: () => Promise<void>;
}

/**
 * Runs the command `argv` names against the booted application and resolves with its exit code.
 * The CLI (commander, the generators, the prompt) loads only here, when a command is asked for.
 *
 * @example
 * process.exitCode = await runCommand(process.argv, { router, container, close });
 */
export async function runCommand(argv: readonly string[], sources: CommandSources): Promise<number> {
  const { router, container, close } = sources;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  const { runApplicationCommand } = require('../cli/application-command') as typeof ApplicationCommand;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load, with TypeORM
  const { connectForCommand } = require('../cli/command-connection') as typeof CommandConnection;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  const { inspectJobs } = require('../cli/jobs-inspection') as typeof JobsInspection;
  return runApplicationCommand(argv, {
    routes: () => router.routes(),
    openapi: () => {
      if (!container.has(OPENAPI_DOCUMENT)) throw OpenApiErrors.noOpenApiModule();
      return container.get(OPENAPI_DOCUMENT).document();
    },
    database: (command) => connectForCommand(container, command),
    jobs: () => inspectJobs(container, 'jobs:status'),
    close,
  });
}

import path from 'node:path';
import type { DataSource } from 'typeorm';
import { messageOf } from '../errors';
import type { JobsStatus } from '../jobs/jobs-status';
import type { RouteDefinition } from '../routing/route';
import { runCli } from './program';

/** What running a command needs from the booted application. */
export interface CommandHost {
  readonly routes: () => readonly RouteDefinition[];
  /** The application's OpenAPI document; throws when the application has none. */
  readonly openapi: () => unknown;
  /** The application's DataSource, connected for `command`; throws when the application has none. */
  readonly database: (command: string) => Promise<DataSource>;
  /** The application's job queues and failed jobs; throws when the application has no JobsModule. */
  readonly jobs: () => Promise<JobsStatus>;
  /** Closes the application once the command is done, quietly. */
  readonly close: () => Promise<void>;
}

/**
 * Runs the command in `argv` (`node dist/main.js routes`) against a booted application, closes
 * the application, and resolves with the exit code: a failed close makes a successful command 1.
 *
 * @example
 * process.exitCode = await runApplicationCommand(process.argv, { routes, openapi, database, close });
 */
export async function runApplicationCommand(argv: readonly string[], host: CommandHost): Promise<number> {
  const script = path.relative(process.cwd(), argv[1] ?? 'main.js');
  let exitCode = await runCli(argv.slice(2), {
    name: `node ${script}`,
    routes: host.routes,
    openapi: host.openapi,
    database: host.database,
    jobs: host.jobs,
  });
  await host.close().catch((error: unknown) => {
    process.stderr.write(`${messageOf(error)}\n`);
    exitCode ||= 1;
  });
  return exitCode;
}

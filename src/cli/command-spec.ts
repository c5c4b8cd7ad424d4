import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import type { JobsStatus } from '../jobs/jobs-status';
import type { RouteDefinition } from '../routing/route';

/** Where the commands run: the `framework` program alone, or an application's entry point. */
export interface CliHost {
  /** How usage lines name the program: `framework`, or `node dist/main.js`. */
  readonly name: string;
  /** The booted application's routes; absent when the framework program runs on its own. */
  readonly routes?: () => readonly RouteDefinition[];
  /** The booted application's OpenAPI document; absent when the framework program runs on its own. */
  readonly openapi?: () => unknown;
  /** The application's DataSource, connected for `command`; absent when the framework program runs on its own. */
  readonly database?: (command: string) => Promise<DataSource>;
  /** The application's job queues and failed jobs; absent when the framework program runs on its own. */
  readonly jobs?: () => Promise<JobsStatus>;
}

/** One command of the table: its name, and how it defines its arguments, options and action. */
export interface CommandSpec {
  readonly name: string;
  readonly define: (command: Command, host: CliHost) => void;
}

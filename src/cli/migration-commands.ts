import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { FrameworkError, messageOf } from '../errors';
import { CliErrors } from '../errors/cli-errors';
import { MigrationErrors } from '../errors/migration-errors';
import type { Logger } from '../logging/logger';
import { migrateUnderLock, type MigrateUnderLockOptions } from '../migrations/migrate-under-lock';
import { migrationStates, revertMigrations, type MigrationEntry } from '../migrations/migration-states';
import { schemaDiff } from '../migrations/schema-diff';
import { runSchemaWork } from '../orm/schema-work';
import { writeMigration } from './migration-file';
import { migrationNames } from './migration-naming';
import type { CliHost, CommandSpec } from './command-spec';

// How long one wait for the lock lasts before it is asked for again: a command's queries all run as
// schema work, unbounded by queryTimeoutMs, so only the lock's own wait (lock_timeout) limits it.
const LOCK_WAIT_MS = 1000;

const STATE_LABELS: Readonly<Record<MigrationEntry['state'], string>> = {
  applied: 'applied',
  pending: 'pending',
  missing: 'applied, no longer in the code',
};

/**
 * The commands that manage the application's migrations with its own `DataSource`: each connects
 * it, does its work, prints, and closes it; none serves.
 *
 * @example
 * for (const { name, define } of MIGRATION_COMMANDS) define(program.command(name), host);
 */
export const MIGRATION_COMMANDS: readonly CommandSpec[] = [
  { name: 'migration:create', define: defineCreate },
  { name: 'migration:generate', define: defineGenerate },
  { name: 'migrate', define: defineMigrate },
  { name: 'migrate:rollback', define: defineRollback },
  { name: 'migrate:status', define: defineStatus },
];

function defineCreate(command: Command): void {
  command
    .description('write an empty migration in src/migrations/ and register it with the DataSource')
    .argument('<name>', 'what the migration does, such as AddOrderNote')
    .action((name: string) => {
      const names = migrationNames(name, Date.now());
      print(writeMigration({ names, up: [], down: [], root: '.' }));
    });
}

function defineGenerate(command: Command, host: CliHost): void {
  command
    .description("write a migration of what the entities change in the database's schema, and register it")
    .argument('<name>', 'what the migration does, such as AddOrderNote')
    .action(async (name: string) => {
      // Checked before connecting: a name that cannot be written wastes no connection.
      const names = migrationNames(name, Date.now());
      const { up, down } = await withDatabase(host, 'migration:generate', schemaDiff);
      if (up.length === 0) return print('no changes: the database matches the entities; nothing was written');
      print(writeMigration({ names, up, down, root: '.' }));
    });
}

function defineMigrate(command: Command, host: CliHost): void {
  command
    .description('run the pending migrations under the database lock, printing each')
    .action(async () => {
      const applied = await withDatabase(host, 'migrate', (dataSource) =>
        migrateUnderLock(dataSource, lockOptions()),
      );
      print(applied.length === 0 ? 'nothing to migrate' : applied.map(({ name }) => `migrated ${name}`));
    });
}

function defineRollback(command: Command, host: CliHost): void {
  command
    .description('revert the last applied migrations (one unless --step says more), under the lock')
    .option('--step <n>', 'how many migrations to revert', '1')
    .action(async (flags: { step: string }) => {
      if (!/^[1-9]\d*$/.test(flags.step)) throw MigrationErrors.invalidStep(flags.step);
      const reverted = await withDatabase(host, 'migrate:rollback', (dataSource) =>
        revertMigrations(dataSource, Number(flags.step), lockOptions()),
      );
      print(reverted.length === 0 ? 'nothing to revert' : reverted.map((name) => `reverted ${name}`));
    });
}

function defineStatus(command: Command, host: CliHost): void {
  command
    .description('list each migration, applied or pending')
    .option('--check', 'exit 1 when a migration is pending (for a pipeline that must find none)')
    .action(async (flags: { check?: boolean }) => {
      const entries = await withDatabase(host, 'migrate:status', migrationStates);
      const width = Math.max(...entries.map(({ state }) => STATE_LABELS[state].length));
      print(
        entries.length === 0
          ? 'no migrations'
          : entries.map(({ name, state }) => `${STATE_LABELS[state].padEnd(width)}  ${name}`),
      );
      const pending = entries.filter(({ state }) => state === 'pending').length;
      if (flags.check && pending > 0) throw MigrationErrors.migrationsPending(pending);
    });
}

// Connects the application's DataSource for `command`, runs `work`, and closes it whatever happened.
async function withDatabase<T>(
  host: CliHost,
  command: string,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  if (!host.database) throw CliErrors.needsApplication(command);
  let dataSource: DataSource | undefined;
  try {
    dataSource = await host.database(command);
    const connected = dataSource;
    // A command does schema work from start to end: nothing in it is a request's query.
    return await runSchemaWork(() => work(connected));
  } catch (error) {
    // The database's own words (a failed statement, a refused connection), without a stack.
    throw error instanceof FrameworkError
      ? error
      : MigrationErrors.migrationFailed(command, messageOf(error));
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
  }
}

function lockOptions(): MigrateUnderLockOptions {
  return { lockWaitMs: LOCK_WAIT_MS, signal: new AbortController().signal, logger: stderrLogger };
}

// Output is stdout's; what the lock wait says goes to stderr, as plain lines.
const say = (_details: object, message?: string): void => {
  if (message) process.stderr.write(`${message}\n`);
};
const stderrLogger: Logger = { debug: () => undefined, info: say, warn: say, error: say };

function print(lines: string | readonly string[]): void {
  process.stdout.write(`${typeof lines === 'string' ? lines : lines.join('\n')}\n`);
}

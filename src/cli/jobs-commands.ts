import type { Command } from 'commander';
import type { JobsStatus } from '../jobs/jobs-status';
import { CliErrors } from '../errors/cli-errors';
import type { CliHost, CommandSpec } from './command-spec';

const COLUMNS = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;

/**
 * The commands that show the application's jobs: `jobs:status` lists each queue with its counts by
 * state, then the jobs that failed every try, newest first.
 *
 * @example
 * for (const { name, define } of JOBS_COMMANDS) define(program.command(name), host);
 */
export const JOBS_COMMANDS: readonly CommandSpec[] = [{ name: 'jobs:status', define: defineStatus }];

function defineStatus(command: Command, host: CliHost): void {
  command
    .description('list the job queues with their counts, and the jobs that failed every try')
    .action(async () => {
      if (!host.jobs) throw CliErrors.needsApplication('jobs:status');
      process.stdout.write(`${formatJobsStatus(await host.jobs())}\n`);
    });
}

/** The text `jobs:status` prints. @example formatJobsStatus({ queues: [], failed: [] }) // 'no job queues\nno failed jobs' */
export function formatJobsStatus({ queues, failed }: JobsStatus): string {
  const lines: string[] = [];
  if (queues.length === 0) lines.push('no job queues');
  else {
    const width = Math.max('queue'.length, ...queues.map(({ name }) => name.length));
    lines.push(['queue'.padEnd(width), ...COLUMNS.map((column) => column.padStart(9))].join('  '));
    for (const queue of queues) {
      lines.push(
        [queue.name.padEnd(width), ...COLUMNS.map((column) => String(queue[column]).padStart(9))].join('  '),
      );
    }
  }
  lines.push('');
  if (failed.length === 0) lines.push('no failed jobs');
  else {
    lines.push(`failed jobs (${failed.length}, newest first):`);
    for (const job of failed) {
      const tries = `${job.attempts} ${job.attempts === 1 ? 'try' : 'tries'}`;
      lines.push(`  ${job.name}  ${job.id}  ${tries}  ${job.failedAt.toISOString()}  ${job.error}`);
    }
  }
  return lines.join('\n');
}

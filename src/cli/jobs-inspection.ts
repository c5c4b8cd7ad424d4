import type { Container } from '../container/container';
import { messageOf } from '../errors';
import { JobsRuntime } from '../jobs/jobs-runtime';
import type { JobsStatus } from '../jobs/jobs-status';
import { CliErrors } from '../errors/cli-errors';

/**
 * The application's job queues and failed jobs, read through its own `JobsModule` connection for
 * `command`; an application without `JobsModule` is refused, and a database that fails is
 * reported in its own words (exit 1 both).
 *
 * @example
 * const status = await inspectJobs(container, 'jobs:status');
 */
export async function inspectJobs(container: Container, command: string): Promise<JobsStatus> {
  if (!container.has(JobsRuntime)) throw CliErrors.noJobsModule(command);
  try {
    return await container.get(JobsRuntime).inspect();
  } catch (error) {
    // The database's own words (a refused connection, a missing schema), without a stack.
    throw CliErrors.commandFailed(command, messageOf(error));
  }
}

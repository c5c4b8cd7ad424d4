import type { Container } from '../container/container';
import { JobsRuntime } from '../jobs/jobs-runtime';
import type { JobsStatus } from '../jobs/jobs-status';
import { CliErrors } from './cli-errors';

/**
 * The application's job queues and failed jobs, read through its own `JobsModule` connection for
 * `command`; an application without `JobsModule` is refused (exit 1).
 *
 * @example
 * const status = await inspectJobs(container, 'jobs:status');
 */
export function inspectJobs(container: Container, command: string): Promise<JobsStatus> {
  if (!container.has(JobsRuntime)) throw CliErrors.noJobsModule(command);
  return container.get(JobsRuntime).inspect();
}

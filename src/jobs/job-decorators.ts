import { MetadataKey } from '../metadata/keys';
import { appendMetadata } from '../metadata/reflection';

/** How a job is run on each replica, and retried when its handler throws. */
export interface JobOptions {
  /** How many times a failed job is tried again before it stays failed. Default: `2`. */
  readonly retries?: number;
  /** The wait before the first retry, doubled (with jitter) for each one after it. Default: `1`. */
  readonly retryDelayS?: number;
  /** How many jobs of this name one replica runs at once (1 to 100). Default: `1`. */
  readonly concurrency?: number;
}

/** What `@Job` and `@Cron` record on a class: one entry per decorated method. @internal */
export type JobDeclaration =
  | {
      readonly kind: 'job';
      readonly name: string;
      readonly method: string | symbol;
      readonly options: JobOptions;
    }
  | { readonly kind: 'cron'; readonly expression: string; readonly method: string | symbol };

/**
 * Makes this method the handler of the jobs named `name`: `jobs.enqueue(name, data)` runs it with
 * `data` on one replica, and retries it (with backoff) when it throws, up to `retries` times.
 *
 * @example
 * @Job('send-welcome', { retries: 3, concurrency: 4 }) async sendWelcome(data: { to: string }) { await this.mail.send(data.to); }
 */
export function Job(name: string, options: JobOptions = {}): MethodDecorator {
  return (prototype, method) =>
    appendMetadata<JobDeclaration>(
      MetadataKey.jobs,
      { kind: 'job', name, method, options },
      prototype.constructor,
    );
}

/**
 * Runs this method on a schedule (a five-field cron expression, in UTC), once per tick across all
 * the replicas, whichever replica runs it.
 *
 * @example
 * @Cron('0 6 * * *') async dailySummary() { await this.reports.send(); }
 */
export function Cron(expression: string): MethodDecorator {
  return (prototype, method) =>
    appendMetadata<JobDeclaration>(
      MetadataKey.jobs,
      { kind: 'cron', expression, method },
      prototype.constructor,
    );
}

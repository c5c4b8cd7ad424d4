import type { Class } from '../container/token';
import { MetadataKey } from '../metadata/keys';
import { appendMetadata } from '../metadata/reflection';

/** How a job is retried when its handler throws. */
export interface JobOptions {
  /** How many times a failed job is tried again before it stays failed. Default: `2`. */
  readonly retries?: number;
  /** The wait before the first retry, doubled (with jitter) for each one after it. Default: `1`. */
  readonly retryDelayS?: number;
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

// Every class a @Job or @Cron was written on, so that boot can name one no module provides: its
// jobs would be enqueued and never run. Classes only; what they declare stays in their metadata.
const declaringClasses = new Set<Class>();

/**
 * Makes this method the handler of the jobs named `name`: `jobs.enqueue(name, data)` runs it with
 * `data` on one replica, and retries it (with backoff) when it throws, up to `retries` times.
 *
 * @example
 * @Job('send-welcome', { retries: 3 }) async sendWelcome(data: { to: string }) { await this.mail.send(data.to); }
 */
export function Job(name: string, options: JobOptions = {}): MethodDecorator {
  return (prototype, method) => declare(prototype, { kind: 'job', name, method, options });
}

/**
 * Runs this method on a schedule (a five-field cron expression, in UTC), once per tick across all
 * the replicas, whichever replica runs it.
 *
 * @example
 * @Cron('0 6 * * *') async dailySummary() { await this.reports.send(); }
 */
export function Cron(expression: string): MethodDecorator {
  return (prototype, method) => declare(prototype, { kind: 'cron', expression, method });
}

function declare(prototype: object, declaration: JobDeclaration): void {
  appendMetadata(MetadataKey.jobs, declaration, prototype.constructor);
  declaringClasses.add(prototype.constructor as Class);
}

/** The classes that declare jobs or schedules, in the order they were decorated. @internal */
export function jobDeclaringClasses(): readonly Class[] {
  return [...declaringClasses];
}

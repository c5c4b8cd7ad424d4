import type { Class } from '../container/token';
import { MetadataKey } from '../metadata/keys';
import { getOwnMetadata } from '../metadata/reflection';
import type { JobDeclaration } from './job-decorators';
import { JobErrors } from '../errors/job-errors';

/** One queue the application works on: a `@Job` method, or a `@Cron` method and its schedule. @internal */
export interface JobHandler {
  /** The queue's name: the job's, or `<Class>.<method>` for a schedule. */
  readonly name: string;
  /** `Class.method`, as errors and the log name it. */
  readonly label: string;
  readonly run: (data: unknown, job: RunningJob) => unknown;
  readonly retries: number;
  readonly retryDelayS: number;
  /** How many of its jobs one replica runs at once. */
  readonly concurrency: number;
  /** The schedule's cron expression, for a `@Cron` method. */
  readonly cron?: string;
}

/** What a handler is told about the job it runs, beside its data. */
export interface RunningJob {
  readonly id: string;
  readonly name: string;
  /** 1 for the first try, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** Aborted when the replica stops and the job did not finish within `shutdownTimeoutMs`. */
  readonly signal: AbortSignal;
}

const DEFAULT_RETRIES = 2;
const DEFAULT_RETRY_DELAY_S = 1;
const DEFAULT_CONCURRENCY = 1;
// Each running job holds a worker of its own polling the queue's pool: past this, the pool, not the
// handlers, sets the pace.
const MAX_CONCURRENCY = 100;
// pg-boss accepts these in queue names; a schedule's queue is named after its class and method.
const QUEUE_NAME = /^[\w.\-/]+$/;
// Five fields: pg-boss looks for due schedules once per minute slot, so a seconds field would be
// silently rounded to a minute. Macros (@daily, @hourly) are five-field shorthands.
const FIVE_FIELDS = /^(\S+\s+){4}\S+$/;

/**
 * The handlers the application's providers declare, checked: a name twice, a name pg-boss cannot
 * keep, retries or a concurrency that is not a count, or a schedule that is not a five-field cron
 * expression (checked by `isValidCron`) are boot errors. A class no module provides is not looked
 * at: only the providers' classes (and their parents) are. @internal
 */
export function collectJobHandlers(
  instances: readonly unknown[],
  isValidCron: (expression: string) => string | undefined,
): JobHandler[] {
  const handlers = new Map<string, JobHandler>();
  const provided = new Set<Class>();
  for (const instance of instances) {
    if (typeof instance !== 'object' || instance === null) continue;
    const type = instance.constructor as Class;
    if (provided.has(type)) continue;
    // A subclass inherits its parents' @Job methods, run on its instance (overrides included).
    const declared = classChain(type).flatMap((ancestor) => {
      provided.add(ancestor);
      return declarationsOf(ancestor);
    });
    for (const declaration of declared) {
      const handler = handlerOf(instance, type, declaration, isValidCron);
      const existing = handlers.get(handler.name);
      if (existing) throw JobErrors.duplicateJob(handler.name, existing.label, handler.label);
      handlers.set(handler.name, handler);
    }
  }
  return [...handlers.values()];
}

// The class and its parents, up to (not including) Object.
function classChain(type: Class): Class[] {
  const chain: Class[] = [];
  for (
    let current: unknown = type;
    typeof current === 'function' && current !== Object && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    chain.push(current as Class);
  }
  return chain;
}

function declarationsOf(type: Class): readonly JobDeclaration[] {
  return getOwnMetadata<readonly JobDeclaration[]>(MetadataKey.jobs, type) ?? [];
}

function handlerOf(
  instance: object,
  type: Class,
  declaration: JobDeclaration,
  isValidCron: (expression: string) => string | undefined,
): JobHandler {
  const label = `${type.name}.${String(declaration.method)}`;
  const method = (instance as Record<string | symbol, unknown>)[declaration.method];
  if (typeof method !== 'function') throw JobErrors.invalidJob(label, 'is not a method');
  const run = (data: unknown, job: RunningJob): unknown => method.call(instance, data, job);
  if (declaration.kind === 'cron') {
    const { expression } = declaration;
    const problem =
      FIVE_FIELDS.test(expression.trim()) || /^@\w+$/.test(expression.trim())
        ? isValidCron(expression)
        : 'a schedule runs at most once a minute: give five fields (minute hour day month weekday)';
    if (problem) throw JobErrors.invalidJob(`@Cron('${expression}') on ${label}`, problem);
    const schedule = { retries: 0, retryDelayS: DEFAULT_RETRY_DELAY_S, concurrency: 1, cron: expression };
    return { name: label, label, run, ...schedule };
  }
  const { name, options } = declaration;
  if (typeof name !== 'string' || !QUEUE_NAME.test(name)) {
    throw JobErrors.invalidJob(
      `@Job(${JSON.stringify(name)}) on ${label}`,
      'a job name is letters, digits, and _ - . /',
    );
  }
  const where = `@Job('${name}') on ${label}`;
  const {
    retries = DEFAULT_RETRIES,
    retryDelayS = DEFAULT_RETRY_DELAY_S,
    concurrency = DEFAULT_CONCURRENCY,
  } = options;
  if (!Number.isInteger(retries) || retries < 0) {
    throw JobErrors.invalidJob(where, `retries is ${retries}; it must be a whole number from 0`);
  }
  if (!Number.isInteger(retryDelayS) || retryDelayS < 1) {
    throw JobErrors.invalidJob(
      where,
      `retryDelayS is ${retryDelayS}; it must be a whole number of seconds from 1`,
    );
  }
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw JobErrors.invalidJob(
      where,
      `concurrency is ${concurrency}; it must be a whole number from 1 to ${MAX_CONCURRENCY}`,
    );
  }
  return { name, label, run, retries, retryDelayS, concurrency };
}

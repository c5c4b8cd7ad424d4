import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JobErrors } from '../errors/job-errors';

// The part of pg-boss keel uses, declared here rather than imported from its typings: keel's own
// declarations then never name pg-boss's, which do not type-check without skipLibCheck.

/** pg-boss's constructor options (see its documentation). @internal */
export interface PgBossOptions {
  readonly schema: string;
  readonly [option: string]: unknown;
}

/** One job as a pg-boss worker receives it. @internal */
export interface QueueJob {
  readonly id: string;
  readonly data: unknown;
  readonly retryCount: number;
  readonly signal: AbortSignal;
}

/** The pg-boss client, as keel uses it. @internal */
export interface PgBoss {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'warning', listener: (warning: { message: string; data: object }) => void): unknown;
  start(options?: { attempts?: number }): Promise<unknown>;
  stop(options?: { graceful?: boolean; timeout?: number; close?: boolean }): Promise<void>;
  createQueue(name: string, options?: object): Promise<void>;
  updateQueue(name: string, options?: object): Promise<void>;
  schedule(name: string, cron: string): Promise<void>;
  getSchedules(): Promise<{ name: string; key: string }[]>;
  unschedule(name: string, key?: string): Promise<void>;
  work(name: string, options: object, handler: (jobs: QueueJob[]) => Promise<unknown>): Promise<string>;
  notifyWorker(workerId: string): void;
  send(name: string, data: object, options?: object): Promise<string | null>;
  previewSchedule(cron: string, options?: { count?: number }): Date[];
  getDb(): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
}

/**
 * pg-boss, loaded when `JobsModule.forRoot` is first called: an application without jobs never
 * loads it, nor installs it (it is an optional peer dependency, and asks for a newer Node than keel
 * does). It is an ES module, which Node 20.19+ can `require`. An application that imports
 * `JobsModule` without having installed it stops with `E_JOBS_PG_BOSS_MISSING`. @internal
 *
 * @example
 * const boss = new (loadPgBoss().PgBoss)({ connectionString, schema: 'keel_jobs' });
 */
export function loadPgBoss(): { readonly PgBoss: new (options: PgBossOptions) => PgBoss } {
  // Resolved first, so that only pg-boss itself missing reads as not installed: a dependency of an
  // installed pg-boss that fails to load keeps its own error.
  try {
    require.resolve('pg-boss');
  } catch {
    throw JobErrors.pgBossMissing(peerVersion('pg-boss'));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  return require('pg-boss') as { PgBoss: new (options: PgBossOptions) => PgBoss };
}

// The version keel is tested with is the one its package.json asks its peers for, so the fix an
// error names can never drift from it. From src/jobs and dist/jobs alike, it is two levels up.
function peerVersion(name: string): string {
  const manifest = readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { peerDependencies: Record<string, string> }).peerDependencies[name];
}

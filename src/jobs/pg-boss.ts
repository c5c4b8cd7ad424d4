import type * as PgBossModule from 'pg-boss';

/** The pg-boss client class. @internal */
export type PgBoss = PgBossModule.PgBoss;
/** pg-boss's constructor options. @internal */
export type PgBossOptions = PgBossModule.ConstructorOptions;

/**
 * pg-boss, loaded when `JobsModule.forRoot` is first called: an application without jobs never
 * loads it. It is an ES module, which Node 20.19+ can `require`.
 *
 * @example
 * const boss = new (loadPgBoss().PgBoss)({ connectionString, schema: 'keel_jobs' });
 */
export function loadPgBoss(): typeof PgBossModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  return require('pg-boss') as typeof PgBossModule;
}

import type * as TypeOrm from 'typeorm';

/**
 * TypeORM, loaded when a database module or the health module is first declared: an application
 * that uses neither never loads it (it is a large part of a cold start).
 *
 * @example
 * const { DataSource } = loadTypeOrm();
 */
export function loadTypeOrm(): typeof TypeOrm {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  return require('typeorm') as typeof TypeOrm;
}

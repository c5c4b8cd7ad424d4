import path from 'node:path';
import { embeddedPostgres } from 'keel';
import type { SampleConfig } from '../config/sample-config';
import type { DatabaseTarget } from './database-target';
import { withoutPassword } from './database-target';

/** Connections in TypeORM's pool (pg's `max`). */
export const POOL_SIZE = 10;

/** Where the embedded database keeps its files: `sample/.data/`, beside the compiled `dist/`. */
const EMBEDDED_DATA_DIR = path.join(__dirname, '..', '..', '.data', 'postgres');

/**
 * `DATABASE_URL`'s PostgreSQL when it is set; otherwise the embedded one, with its files in
 * `DATA_DIR` (default `sample/.data/postgres`), started when the application first connects.
 */
export function chooseDatabase(config: SampleConfig): DatabaseTarget {
  const url = config.DATABASE_URL?.trim();
  if (url) return { url, description: `PostgreSQL at ${withoutPassword(url)}` };
  const dataDir = path.resolve(config.DATA_DIR || EMBEDDED_DATA_DIR);
  return {
    server: () => embeddedPostgres({ dataDir, poolSize: POOL_SIZE }),
    description: `embedded PostgreSQL (PGlite), data in ${dataDir}`,
  };
}

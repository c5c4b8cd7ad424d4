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
 * `DATABASE_URL`'s PostgreSQL when it is set; otherwise the embedded one, started now, with its
 * files in `DATA_DIR` (default `sample/.data/postgres`).
 */
export async function openDatabase(config: SampleConfig): Promise<DatabaseTarget> {
  const url = config.DATABASE_URL?.trim();
  if (!url) return embeddedPostgres({ dataDir: config.DATA_DIR || EMBEDDED_DATA_DIR, poolSize: POOL_SIZE });
  return { url, description: `PostgreSQL at ${withoutPassword(url)}` };
}

import { embeddedPostgres } from 'keel';
import type { Env } from './config';

/** The PostgreSQL the application runs on. */
export interface Database {
  readonly url: string;
  /** What the startup log says about it (never the password). */
  readonly description: string;
  /** Stops what the application started for itself (the embedded server), once the pool has closed. */
  stop?(): Promise<void>;
}

/**
 * The server `DATABASE_URL` names; without it, PostgreSQL compiled to WebAssembly (PGlite) inside
 * this process, its files in `DATA_DIR`.
 */
export async function openDatabase(env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Database> {
  const url = env.DATABASE_URL?.trim();
  if (url) return { url, description: 'the PostgreSQL server in DATABASE_URL' };
  return embeddedPostgres({ dataDir: env.DATA_DIR });
}

import path from 'node:path';
import { embeddedPostgres, type DatabaseConnectOptions } from 'keel';
import type { Env } from './config';

/** The PostgreSQL the application runs on. */
export interface Database {
  /** A server of yours; absent, `server` gives the URL once started. */
  readonly url?: string;
  /** Starts the embedded server when the application first connects (a command such as `routes` never does). */
  readonly server?: DatabaseConnectOptions['server'];
  /** What the startup log says about it (never the password). */
  readonly description: string;
}

/**
 * The server `DATABASE_URL` names; without it, PostgreSQL compiled to WebAssembly (PGlite) inside
 * this process, its files in `DATA_DIR`. Nothing starts here.
 */
export function chooseDatabase(env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>): Database {
  const url = env.DATABASE_URL?.trim();
  if (url) return { url, description: 'the PostgreSQL server in DATABASE_URL' };
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    server: () => embeddedPostgres({ dataDir }),
    description: `embedded PostgreSQL (PGlite), data in ${dataDir}`,
  };
}

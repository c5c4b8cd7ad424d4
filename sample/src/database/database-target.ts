import type { DatabaseConnectOptions } from 'keel';

/** The PostgreSQL the application talks to: a server of the user's, or the embedded one. */
export interface DatabaseTarget {
  /** A `postgres://` URL TypeORM connects to; absent, `server` gives it once started. */
  readonly url?: string;
  /** Starts the embedded server when the application first connects (a command such as `routes` never does). */
  readonly server?: DatabaseConnectOptions['server'];
  /** What the startup log says about it (never the password). */
  readonly description: string;
}

/** `url` without its password, for the log. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** The PostgreSQL the application talks to: a server of the user's, or the embedded one. */
export interface DatabaseTarget {
  /** A `postgres://` URL TypeORM connects to. */
  readonly url: string;
  /** What the startup log says about it (never the password). */
  readonly description: string;
  /** Stops what the application started for itself (the embedded server), once the pool has closed. */
  stop?(): Promise<void>;
}

/** `url` without its password, for the log. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import { AuthErrors } from '../errors/auth-errors';
import { HandlerErrors } from '../errors/handler-errors';
import { digestOf, randomSecret } from './secret-digest';
import type { AuthStrategy, Recognition, StrategyServices } from './strategy';

/** Options of {@link session}; the timeouts are OWASP's session management advice for most applications. */
export interface SessionOptions {
  /** The session cookie's name, as `SessionModule` sets it. Default: `keel.session`. */
  readonly cookieName?: string;
  /** Seconds a login lasts at most, however active (the absolute timeout). Default: 8 hours. */
  readonly maxAgeS?: number;
  /** Seconds without a request after which a login ends (the idle timeout). Default: 30 minutes. */
  readonly idleTimeoutS?: number;
}

/** The `session()` strategy, which logs users in and out. */
export interface SessionStrategy extends AuthStrategy {
  /** @internal what `auth.login` does */
  login(req: Request, userId: string): Promise<void>;
  /** @internal what `auth.logout` does */
  logout(req: Request): Promise<void>;
}

// The key of the session's data that holds its login's id.
const LOGIN_KEY = 'keel.login';
// `last_seen_at` is written at most once a minute per login: the idle timeout needs no finer.
const TOUCH_EVERY = "interval '60 seconds'";

interface LoginRow {
  readonly user_id: string;
  readonly has_ended: boolean;
  readonly is_stale: boolean;
}

/**
 * Authenticates a request by its session (`SessionModule`'s signed cookie) once `auth.login(ctx,
 * user)` has run: the cookie holds a random login id, and the table `keel_sessions` of the
 * application's database (created by the migration `AuthTables`) its SHA-256 and the user's id.
 * `auth.login` renews the session (a cookie captured before it opens nothing after it);
 * `auth.logout` deletes the row, so a copy of the cookie replayed on any replica is anonymous.
 *
 * @example
 * AuthModule.forRoot({ default: 'session', strategies: { session: session() }, user })
 */
export function session(options: SessionOptions = {}): SessionStrategy {
  const cookieName = options.cookieName ?? 'keel.session';
  const maxAgeS = checkSeconds('maxAgeS', options.maxAgeS ?? 8 * 3600);
  const idleTimeoutS = checkSeconds('idleTimeoutS', options.idleTimeoutS ?? 30 * 60);
  let database: (() => DataSource) | undefined;
  const dataSource = (): DataSource => {
    if (!database) throw AuthErrors.invalidStrategy('session', 'it was not started by AuthModule');
    return database();
  };

  return {
    scheme: { type: 'apiKey', in: 'cookie', name: cookieName },
    challenge: `Cookie name="${cookieName}"`,
    start(services: StrategyServices) {
      database = services.dataSource;
    },
    async recognise(req: Request): Promise<Recognition> {
      const loginId = sessionOf(req)[LOGIN_KEY];
      if (typeof loginId !== 'string') return undefined;
      const rows = (await dataSource().query(
        `SELECT user_id,
           (expires_at <= now() OR last_seen_at < now() - make_interval(secs => $2)) AS has_ended,
           last_seen_at < now() - ${TOUCH_EVERY} AS is_stale
         FROM keel_sessions WHERE id_hash = $1`,
        [digestOf(loginId), idleTimeoutS],
      )) as LoginRow[];
      const row = rows[0];
      if (!row) return { failure: 'logged_out' };
      if (row.has_ended) return { failure: 'session_expired' };
      if (row.is_stale)
        await dataSource().query('UPDATE keel_sessions SET last_seen_at = now() WHERE id_hash = $1', [
          digestOf(loginId),
        ]);
      return { claims: { sub: row.user_id } };
    },
    async login(req, userId) {
      const data = sessionOf(req);
      await forget(dataSource(), data[LOGIN_KEY]);
      const loginId = randomSecret();
      await dataSource().query(
        `INSERT INTO keel_sessions (id_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
        [digestOf(loginId), userId, maxAgeS],
      );
      // Renewed: nothing of the anonymous session (its CSRF token above all) survives the login.
      clear(data);
      data[LOGIN_KEY] = loginId;
    },
    async logout(req) {
      const data = sessionOf(req);
      await forget(dataSource(), data[LOGIN_KEY]);
      clear(data);
    },
  };
}

async function forget(dataSource: DataSource, loginId: unknown): Promise<void> {
  if (typeof loginId === 'string')
    await dataSource.query('DELETE FROM keel_sessions WHERE id_hash = $1', [digestOf(loginId)]);
}

function sessionOf(req: Request): Record<string, unknown> {
  const { session: data } = req as { session?: Record<string, unknown> | null };
  if (!data) throw HandlerErrors.noSession('session() authentication');
  return data;
}

function checkSeconds(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw AuthErrors.invalidStrategy('session', `${name} must be a positive whole number of seconds`);
  return value;
}

function clear(data: Record<string, unknown>): void {
  for (const key of Object.keys(data)) Reflect.deleteProperty(data, key);
}

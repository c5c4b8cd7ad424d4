import net from 'node:net';

/**
 * The databases the suite talks to. Jest's global setup picks them once and passes them to every
 * test file through the environment: `DATABASE_URL` is always set (a PostgreSQL server, or the
 * embedded one), `KEEL_TEST_DATABASE` says which, and `KEEL_TEST_MARIADB_URL` is set only when a
 * MariaDB server answers.
 */
export const TestDatabaseEnv = {
  postgresUrl: 'DATABASE_URL',
  postgresKind: 'KEEL_TEST_DATABASE',
  mariadbUrl: 'KEEL_TEST_MARIADB_URL',
} as const;

/** Where the suite looks for servers when the environment names none. */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_MARIADB_URL = 'mysql://root@127.0.0.1:3306/test';

/** The PostgreSQL URL every database test uses. */
export function postgresUrl(): string {
  const url = process.env[TestDatabaseEnv.postgresUrl];
  if (!url)
    throw new Error('DATABASE_URL is not set: the suite runs through jest, whose global setup sets it');
  return url;
}

/** True when `postgresUrl()` is a real PostgreSQL server (roles, backends to terminate), not the embedded one. */
export function isPostgresServer(): boolean {
  return process.env[TestDatabaseEnv.postgresKind] === 'server';
}

/** The MariaDB URL, when a server answers on this machine. */
export function mariadbUrl(): string | undefined {
  return process.env[TestDatabaseEnv.mariadbUrl] || undefined;
}

/** Why the MariaDB tests cannot run here, or undefined when a server answers. */
export function mariadbMissing(): string | undefined {
  return mariadbUrl() ? undefined : 'no MariaDB server answers at MARIADB_URL, default 127.0.0.1:3306';
}

/** Why a test that needs a PostgreSQL server (roles, backends, several databases) cannot run here. */
export function postgresServerMissing(): string | undefined {
  return isPostgresServer() ? undefined : 'no PostgreSQL server: the suite runs on its embedded one';
}

/** `url` with its database, user or password replaced. */
export function withUrlParts(
  url: string,
  parts: { database?: string; user?: string; password?: string; port?: number },
): string {
  const parsed = new URL(url);
  if (parts.database !== undefined) parsed.pathname = `/${parts.database}`;
  if (parts.user !== undefined) parsed.username = parts.user;
  if (parts.password !== undefined) parsed.password = parts.password;
  if (parts.port !== undefined) parsed.port = String(parts.port);
  return parsed.toString();
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True when a TCP connection to `url`'s host and port opens within `timeoutMs`. */
export function isReachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const finish = (isOpen: boolean) => {
      socket.destroy();
      resolve(isOpen);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

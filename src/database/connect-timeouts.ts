import type { DataSourceOptions } from 'typeorm';

/** How long a new connection may take before the driver gives up, unless the options say otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

type Options = Record<string, unknown>;

// Where each driver reads its connect timeout; drivers missing here keep their own default.
// Without one, pg waits forever on a server that accepts TCP and never answers. CockroachDB's driver
// ignores `connectTimeoutMS` and passes `extra` to pg as it is.
const CONNECT_TIMEOUTS: Partial<
  Record<DataSourceOptions['type'], (options: Options) => Options | undefined>
> = {
  postgres: (options) => topLevel(options, 'connectTimeoutMS'),
  mysql: (options) => topLevel(options, 'connectTimeout'),
  mariadb: (options) => topLevel(options, 'connectTimeout'),
  mssql: (options) => topLevel(options, 'connectionTimeout'),
  cockroachdb: (options) => {
    const extra = (options.extra ?? {}) as Options;
    if (extra.connectionTimeoutMillis !== undefined) return undefined;
    return { ...options, extra: { ...extra, connectionTimeoutMillis: DEFAULT_CONNECT_TIMEOUT_MS } };
  },
};

function topLevel(options: Options, option: string): Options | undefined {
  return options[option] === undefined ? { ...options, [option]: DEFAULT_CONNECT_TIMEOUT_MS } : undefined;
}

/**
 * `options` with a bounded connect timeout for drivers that wait forever by default; a timeout the
 * options already set is kept.
 *
 * @example
 * new DataSource(withConnectTimeout({ type: 'postgres', url }));
 */
export function withConnectTimeout(options: DataSourceOptions): DataSourceOptions {
  const bounded = CONNECT_TIMEOUTS[options.type]?.(options as unknown as Options);
  return (bounded as DataSourceOptions | undefined) ?? options;
}

import type { DataSourceOptions } from 'typeorm';

/** How long a new connection may take before the driver gives up, unless the options say otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

// Each driver names its connect timeout differently; drivers missing here keep their own default.
// Without one, pg waits forever on a server that accepts TCP and never answers.
const CONNECT_TIMEOUT_OPTION: Partial<Record<DataSourceOptions['type'], string>> = {
  postgres: 'connectTimeoutMS',
  'aurora-postgres': 'connectTimeoutMS',
  cockroachdb: 'connectTimeoutMS',
  mysql: 'connectTimeout',
  mariadb: 'connectTimeout',
  'aurora-mysql': 'connectTimeout',
  mssql: 'connectionTimeout',
};

/**
 * `options` with a bounded connect timeout for drivers that wait forever by default; a timeout the
 * options already set is kept.
 *
 * @example
 * new DataSource(withConnectTimeout({ type: 'postgres', url }));
 */
export function withConnectTimeout(options: DataSourceOptions): DataSourceOptions {
  const option = CONNECT_TIMEOUT_OPTION[options.type];
  if (!option || (options as unknown as Record<string, unknown>)[option] !== undefined) return options;
  return { ...options, [option]: DEFAULT_CONNECT_TIMEOUT_MS } as DataSourceOptions;
}

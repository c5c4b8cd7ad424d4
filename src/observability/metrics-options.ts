import { LifecycleErrors } from '../errors/lifecycle-errors';
import { joinPath } from '../routing/path';

/** Where `MetricsModule` serves the metrics; both optional. */
export interface MetricsModuleOptions {
  /** The path Prometheus scrapes. Default: `/metrics`. */
  path?: string;
  /**
   * Serve the metrics only on a listener of their own on this port (bound to the host
   * `app.listen()` is given, opened and closed with the application), so that the public service
   * need not expose them. `0` picks a free port. Default: the application's own port.
   */
  port?: number;
}

/** {@link MetricsModuleOptions} with the defaults filled in. */
export interface MetricsSettings {
  readonly path: string;
  /** undefined: on the application's own listener. */
  readonly port: number | undefined;
}

const MAX_PORT = 65535;

/** Fills in the defaults; an option of the wrong kind is a boot error naming it. @example resolveMetricsOptions({ port: 9464 }) */
export function resolveMetricsOptions(options: MetricsModuleOptions): MetricsSettings {
  const { path = '/metrics', port } = options;
  if (typeof path !== 'string' || path.trim() === '' || /[?#:*{}]/.test(path))
    throw LifecycleErrors.invalidOption('metrics path', path, "a plain path such as '/metrics'");
  const isPort = typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= MAX_PORT;
  if (port !== undefined && !isPort)
    throw LifecycleErrors.invalidOption(
      'metrics port',
      port,
      `a port number from 0 to ${MAX_PORT}, such as 9464`,
    );
  return { path: joinPath(path), port };
}

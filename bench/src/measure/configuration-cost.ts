import type { ServerLaunch } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { measureVariants, type VariantFigures } from './keel-variants';
import { ORDER_LIST_ROUTE, benchRoute, type BenchRoute } from './routes';
import { benchJwt } from '../servers/bench-jwt';

const ORDER_ROUTE = benchRoute('GET /orders/:id');

/** A build of the same application with one part of a production configuration turned on. */
interface Configuration {
  readonly label: string;
  /** The switches `keel-configured-server` reads; none: the bare application, the baseline. */
  readonly switches: readonly (
    | 'HOOKS'
    | 'ACCESS_LOG'
    | 'METRICS'
    | 'LOAD_SHEDDING'
    | 'NO_REQUEST_SCOPE'
    | 'JWT'
    | 'RETURNED_CLASS'
    | 'ETAG'
    | 'COMPRESSION'
  )[];
  /** The route loaded, when not `GET /orders/:id`. */
  readonly route?: BenchRoute;
}

/** The ~4 KiB list asked for as a browser asks, its answer checked to come compressed. */
const COMPRESSED_LIST_ROUTE: BenchRoute = {
  ...ORDER_LIST_ROUTE,
  headers: { 'accept-encoding': 'br, gzip' },
  answerHeaders: { 'content-encoding': /^br$/ },
};

/** The first is the baseline every other is compared with. */
export const CONFIGURATIONS: readonly Configuration[] = [
  { label: 'bare (logger off, ETags off)', switches: [] },
  { label: 'one APP_GUARD and one APP_INTERCEPTOR', switches: ['HOOKS'] },
  { label: 'access log on (pino to stdout, to a file)', switches: ['ACCESS_LOG'] },
  { label: 'MetricsModule', switches: ['METRICS'] },
  { label: 'load shedding on, idle', switches: ['LOAD_SHEDDING'] },
  { label: 'access log, metrics and load shedding', switches: ['ACCESS_LOG', 'METRICS', 'LOAD_SHEDDING'] },
  { label: 'request scope off (requestScope: false)', switches: ['NO_REQUEST_SCOPE'] },
  { label: 'JWT verify (a valid HS256 token, AuthModule jwt())', switches: ['JWT'] },
  {
    label: 'a returned class with @Exclude, against a plain object',
    switches: ['RETURNED_CLASS'],
  },
  {
    label: 'ETag on',
    switches: ['ETAG'],
    route: { ...ORDER_ROUTE, answerHeaders: { etag: /^W\/"[^"]+"$/ } },
  },
  { label: 'a 4 KiB JSON answer (GET /orders), uncompressed', switches: [], route: ORDER_LIST_ROUTE },
  { label: 'compression on (a 4 KiB JSON answer)', switches: ['COMPRESSION'], route: COMPRESSED_LIST_ROUTE },
];

/**
 * `GET /orders/:id` in the bare application, then with each part of a production configuration
 * on, interleaved round by round: what each part costs a route per request.
 */
export function measureConfigurationCost(
  launch: ServerLaunch,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<VariantFigures[]> {
  return measureVariants(
    CONFIGURATIONS.map(({ label, switches, route }) => ({
      label,
      script: 'keel-configured-server.js',
      env: Object.fromEntries(switches.map((name) => [name, '1'])),
      logsToFile: switches.includes('ACCESS_LOG'),
      route:
        route ??
        (switches.includes('JWT')
          ? { ...ORDER_ROUTE, headers: { authorization: `Bearer ${benchJwt()}` } }
          : ORDER_ROUTE),
    })),
    launch,
    settings,
    loadCore,
  );
}

import type { ServerLaunch } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { measureVariants, type VariantFigures } from './keel-variants';
import { ORDER_LIST_ROUTE, ZOD_ORDER_ROUTE, benchRoute, type BenchRoute } from './routes';
import { benchJwt } from '../servers/bench-jwt';
import { ALLOWED_ORIGIN } from '../servers/cross-origin';

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
    | 'CORS'
    | 'NO_SECURITY_HEADERS'
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

// One of the headers helmet's defaults send: the bare application carries them, as keel's users get them.
const SECURITY_HEADER = 'x-content-type-options';

const BARE_ORDER_ROUTE: BenchRoute = { ...ORDER_ROUTE, answerHeaders: { [SECURITY_HEADER]: /^nosniff$/ } };

/** A browser page of the allowed origin asking for the order, its answer checked to let the page read it. */
const CROSS_ORIGIN_ROUTE: BenchRoute = {
  ...ORDER_ROUTE,
  headers: { origin: ALLOWED_ORIGIN },
  answerHeaders: { 'access-control-allow-origin': new RegExp(`^${ALLOWED_ORIGIN.replace(/[.]/g, '\\.')}$`) },
};

/** The zod route's order, taken as it comes (nothing refused): what the zod row costs beyond reading a body. */
const UNCHECKED_ORDER_ROUTE: BenchRoute = {
  name: 'POST /api/orders/unchecked',
  method: 'POST',
  path: '/api/orders/unchecked',
  body: ZOD_ORDER_ROUTE.body,
  status: ZOD_ORDER_ROUTE.status,
  answer: ZOD_ORDER_ROUTE.answer,
};

/** The first is the baseline every other is compared with. */
export const CONFIGURATIONS: readonly Configuration[] = [
  { label: 'bare (logger off, ETags off, security headers on)', switches: [], route: BARE_ORDER_ROUTE },
  {
    label: 'security headers off (securityHeaders: false)',
    switches: ['NO_SECURITY_HEADERS'],
    route: { ...ORDER_ROUTE, absentHeaders: [SECURITY_HEADER] },
  },
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
  { label: 'CORS, one allowed origin (a cross-origin GET)', switches: ['CORS'], route: CROSS_ORIGIN_ROUTE },
  { label: 'a POST of the order, its body unvalidated', switches: [], route: UNCHECKED_ORDER_ROUTE },
  { label: 'a zod-validated POST of the order (@Body(schema))', switches: [], route: ZOD_ORDER_ROUTE },
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

import path from 'node:path';
import {
  resolveLoadShedding,
  type LoadSheddingOptions,
  type LoadSheddingSettings,
} from '../http/load-shedding-options';
import type { ErrorsOption } from '../http/error-shape';
import { corsPolicy, type CorsOptions, type CorsPolicy } from '../http/cors-policy';
import { securityHeaders, type SecurityHeaders, type SecurityHeadersOptions } from '../http/security-headers';
import { resolveVersioning, type Versioning, type VersioningOptions } from '../http/versioning';
import { isHeaderName } from '../http/raw-headers';
import { joinPath } from '../routing/path';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import { resolveAnswerSettings, type AnswerSettings, type CompressionOptions } from '../http/answer-settings';
import { checkBoolean, checkMilliseconds } from '../lifecycle/option-checks';
import type { Logger } from '../logging/logger';

/** The options of `createApplication`; all are optional. */
export interface ApplicationOptions {
  /** The templates' root directory. Default: `<cwd>/views`. */
  views?: string;
  /** Bodies larger than this are answered 413. Default: `'1mb'`. */
  bodyLimit?: string | number;
  /** A pino-compatible logger, or `false` to silence keel. Default: pino, JSON lines on stdout. */
  logger?: Logger | false;
  /** `listen()` makes SIGTERM and SIGINT start the graceful shutdown, then exit. Default: `true`. */
  handleSignals?: boolean;
  /** How long a shutdown keeps serving (readiness answering 503) before the server stops accepting. Default: `0`. */
  shutdownDelayMs?: number;
  /** How long in-flight requests get to finish once the server stops accepting. Default: `10000`. */
  shutdownTimeoutMs?: number;
  /** How long a client may take to send a request's headers before it is answered 408. Default: `10000`. */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request, body included, before it is answered 408. Default: `30000`. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept open for the client's next request. Default: `5000`. */
  keepAliveTimeoutMs?: number;
  /** The most connections the server holds at once; further ones are closed as they arrive. Default: no cap. */
  maxConnections?: number;
  /**
   * A request with neither Content-Length nor Transfer-Encoding, which by HTTP/1.1 has no body (most
   * GETs), arrives with its body stream already ended (Node's `optimizeEmptyRequests`, Node 24.12
   * and later; older Nodes ignore it): it never emits `'data'`, `'end'` or `'close'`, and
   * `req.readableEnded` is true. It spares such a request the stream's life cycle, about an eighth of
   * what a small GET costs. `false` for Express middleware that waits for a bodiless request's
   * `'end'`, which would otherwise wait until its client gave up (`requestTimeoutMs` bounds only a
   * request still being read, and Node has read this one whole). Default: `true`.
   */
  endBodilessRequests?: boolean;
  /**
   * Limits past which every request but the health routes answers 503 `{"error":"overloaded"}` with
   * `Retry-After`, and readiness 503 with `load`, until the process is back under them. Default: off.
   */
  loadShedding?: LoadSheddingOptions;
  /** One log line per request (`msg: 'request'`), once its answer is finished or its client left. Default: `true`. */
  accessLog?: boolean;
  /**
   * The header a request's id is read from (when valid) and answered in; `false`: neither, the id
   * still exists for the logs. Default: `'X-Request-Id'`.
   */
  requestIdHeader?: string | false;
  /**
   * The request scope: what `currentRequest()` and the request fields of LOGGER's lines are read
   * from, anywhere in a request's asynchronous work. On Node 20 it is an AsyncLocalStorage, which
   * makes every asynchronous step of the process pay for it; `false` spares an application that
   * reads neither: `currentRequest()` is then always undefined and services' lines carry no
   * `requestId` (the access log still does). Tracing keeps it on. Default: `true`.
   */
  requestScope?: boolean;
  /**
   * The shape of every error answer keel writes, from a malformed body to a 500: `'keel'`
   * (`{"error": message}`), `'problem'` (RFC 9457, `application/problem+json`), or a function of
   * the {@link DescribedError} that gives the body (`{ format, contentType, schema }` also says the
   * media type and documents the body). The OpenAPI document follows it. Default: `'keel'`.
   */
  errors?: ErrorsOption;
  /**
   * A path every controller's routes go under (`'/api'`: `@Controller('users')` serves `/api/users`),
   * `app.router.resource()` and `controller()` too; function routes, health, metrics and the
   * documentation stay where they are. Default: none.
   */
  prefix?: string;
  /**
   * The keys signed cookies are signed (the first) and verified (every one) with, newest first, so
   * keys rotate: `ctx.setCookie(name, value, { signed: true })`, `ctx.cookie(name, { signed: true })`.
   * Default: `SessionModule`'s secret, where the application imports it.
   */
  cookieSecrets?: string | readonly string[];
  /**
   * Cross-origin requests from browsers: `true` allows any origin (`*`), an object says which origins
   * (strings, RegExps or a function) and how; preflights are answered 204 before routing, and an
   * origin not allowed gets no CORS header. `@Cors(...)` on a controller replaces it. Default: off.
   */
  cors?: boolean | CorsOptions;
  /**
   * A weak `ETag` on every 200 answer to GET and HEAD with a body keel writes (JSON, HTML, files,
   * returned values); a matching `If-None-Match` gets 304 with no body. Default: `true`.
   */
  etag?: boolean;
  /**
   * Compresses answers with `br` or `gzip`, as the request's `Accept-Encoding` prefers: `true`, or
   * `{ threshold }` (bytes; default 1024, smaller answers go out as they are). Never for event
   * streams, 204/304, HEAD, byte ranges or types that are compressed already. Default: off (a
   * balancer or CDN in front often compresses).
   */
  compression?: boolean | CompressionOptions;
  /**
   * helmet's headers: `X-Content-Type-Options` and `Cross-Origin-Resource-Policy` on every answer;
   * `Strict-Transport-Security` over HTTPS (or `X-Forwarded-Proto: https` under `trust proxy`); on
   * documents (HTML, XHTML, SVG) the rest (`X-Frame-Options`, `Referrer-Policy`,
   * `Cross-Origin-Opener-Policy`...) and a Content-Security-Policy whose nonce templates read as
   * `nonce`. `false` turns them off; an object is helmet's options. Default: on.
   */
  securityHeaders?: boolean | SecurityHeadersOptions;
  /**
   * Where requests name the API version `@Version` routes serve: `{ type: 'uri' }` (`/v2/...`),
   * `{ type: 'header', header: 'Accept-Version' }` or `{ type: 'media', key: 'v' }`
   * (`Accept: application/json;v=2`); `defaultVersion` is a request's that names none. Default: none.
   */
  versioning?: VersioningOptions;
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  readonly views: string;
  readonly bodyLimit: string | number;
  readonly logger: Logger | false | undefined;
  readonly handleSignals: boolean;
  readonly shutdownDelayMs: number;
  readonly shutdownTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number | undefined;
  readonly endBodilessRequests: boolean;
  readonly loadShedding: LoadSheddingSettings | undefined;
  readonly accessLog: boolean;
  /** Undefined where the option is `false`. */
  readonly requestIdHeader: string | undefined;
  readonly requestScope: boolean;
  /** Checked and resolved where the logger is made, as a format that fails is logged. */
  readonly errors: ErrorsOption | undefined;
  /** `''` for none. */
  readonly prefix: string;
  /** Undefined where the option is not given. */
  readonly cookieSecrets: readonly string[] | undefined;
  readonly cors: CorsPolicy | undefined;
  readonly answers: AnswerSettings;
  readonly securityHeaders: SecurityHeaders | undefined;
  readonly versioning: Versioning | undefined;
}

/** The options that shape listening and shutting down. */
export type ShutdownSettings = Pick<
  ResolvedOptions,
  | 'handleSignals'
  | 'shutdownDelayMs'
  | 'shutdownTimeoutMs'
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'maxConnections'
  | 'endBodilessRequests'
>;

/** Fills in the defaults of {@link ApplicationOptions}; an option of the wrong kind is a boot error. */
export function resolveOptions(options: ApplicationOptions): ResolvedOptions {
  return {
    views: path.resolve(options.views ?? path.join(process.cwd(), 'views')),
    bodyLimit: options.bodyLimit ?? '1mb',
    logger: options.logger,
    handleSignals: checkBoolean('handleSignals', options.handleSignals ?? true),
    shutdownDelayMs: checkMilliseconds('shutdownDelayMs', options.shutdownDelayMs ?? 0),
    shutdownTimeoutMs: checkMilliseconds('shutdownTimeoutMs', options.shutdownTimeoutMs ?? 10_000),
    ...resolveClientTimeouts(options),
    maxConnections:
      options.maxConnections === undefined ? undefined : checkCount('maxConnections', options.maxConnections),
    endBodilessRequests: checkBoolean('endBodilessRequests', options.endBodilessRequests ?? true),
    loadShedding: options.loadShedding === undefined ? undefined : resolveLoadShedding(options.loadShedding),
    accessLog: checkBoolean('accessLog', options.accessLog ?? true),
    requestIdHeader: checkHeaderName('requestIdHeader', options.requestIdHeader ?? 'X-Request-Id'),
    requestScope: checkBoolean('requestScope', options.requestScope ?? true),
    errors: options.errors,
    prefix: checkPrefix(options.prefix),
    cookieSecrets: checkSecrets(options.cookieSecrets),
    cors: corsPolicy(options.cors, 'cors'),
    answers: resolveAnswerSettings(options),
    securityHeaders: securityHeaders(options.securityHeaders),
    versioning: resolveVersioning(options.versioning),
  };
}

function checkHeaderName(option: string, value: unknown): string | undefined {
  if (value === false) return undefined;
  // Node would refuse anything else at the first answer, not at boot.
  if (!isHeaderName(value)) {
    throw LifecycleErrors.invalidOption(option, value, 'a header name, or false');
  }
  return value;
}

function resolveClientTimeouts(
  options: ApplicationOptions,
): Pick<ResolvedOptions, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = checkMilliseconds('requestTimeoutMs', options.requestTimeoutMs ?? 30_000);
  const headersTimeoutMs = checkMilliseconds('headersTimeoutMs', options.headersTimeoutMs ?? 10_000);
  // Node refuses a headers timeout longer than the request's, which would never apply.
  if (requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs) {
    throw LifecycleErrors.invalidOption(
      'headersTimeoutMs',
      headersTimeoutMs,
      `at most requestTimeoutMs (${requestTimeoutMs})`,
    );
  }
  const keepAliveTimeoutMs = checkMilliseconds('keepAliveTimeoutMs', options.keepAliveTimeoutMs ?? 5000);
  return { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs };
}

function checkCount(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw LifecycleErrors.invalidOption(option, value, 'a whole number from 1');
  }
  return value;
}

// Segments of the characters a path may hold unencoded, parameters (`:id`, `*rest`) and groups aside:
// a prefix is the same for every request.
const PREFIX = /^(\/[A-Za-z0-9._~!$&'()+,;=@%-]+)+\/?$/;

function checkPrefix(value: unknown): string {
  if (value === undefined || value === '/') return '';
  if (typeof value !== 'string' || !PREFIX.test(value)) {
    throw LifecycleErrors.invalidOption(
      'prefix',
      value,
      "a path such as '/api': a leading slash, then segments without '?', '#', spaces or parameters",
    );
  }
  return joinPath(value);
}

function checkSecrets(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const keys: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  if (keys.length === 0 || keys.some((key) => typeof key !== 'string' || key === ''))
    throw LifecycleErrors.invalidOption(
      'cookieSecrets',
      value,
      'a key, or a list of keys newest first, none empty',
    );
  return Object.freeze(keys as string[]);
}

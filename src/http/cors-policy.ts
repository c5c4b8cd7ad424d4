import { LifecycleErrors } from '../errors/lifecycle-errors';
import type { ServerResponse } from 'node:http';
import { holdHeader, type HeaderObject, type HeaderValue } from './held-headers';
import { sendEmpty } from './send';

/** An origin a CORS policy allows: an exact origin (`https://app.example`), a pattern, or a decision. */
export type CorsOrigin = string | RegExp | ((origin: string) => boolean);

/** What the option `cors` and `@Cors(...)` accept besides `true`. */
export interface CorsOptions {
  /** The origins allowed to call. Default: any origin. */
  readonly origins?: CorsOrigin | readonly (string | RegExp)[];
  /** Whether browsers send cookies and credentials; the concrete origin is then answered, never `*`. Default: `false`. */
  readonly credentials?: boolean;
  /** The methods a preflight allows. Default: GET, HEAD, PUT, PATCH, POST, DELETE. */
  readonly methods?: readonly string[];
  /** The request headers a preflight allows. Default: the ones the preflight asks for. */
  readonly headers?: readonly string[];
  /** The response headers the browser shows the calling script. Default: none beyond the safelisted ones. */
  readonly exposedHeaders?: readonly string[];
  /** How many seconds the browser may keep a preflight's answer. Default: the browser's own (5 s in Chromium). */
  readonly maxAge?: number;
}

const DEFAULT_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * One CORS policy, its headers computed once: per request only the origin is decided. Unlike the
 * `cors` package, whose defaults and option meanings it keeps, an origin it refuses gets no
 * `Access-Control-*` header at all, credentials included, on a preflight as on any request.
 *
 * @example
 * const policy = new CorsPolicy({ origins: ['https://app.example'], credentials: true }, 'cors');
 * policy.hold(res, 'https://app.example'); // Access-Control-Allow-Origin: https://app.example, ...
 */
export class CorsPolicy {
  readonly #allows: (origin: string) => boolean;
  // Any origin, without credentials: answered `*`, the same for every caller, so no `Vary: Origin`.
  readonly #isWildcard: boolean;
  readonly #shared: HeaderObject = {};
  readonly #preflight: HeaderObject = {};
  readonly #reflectsHeaders: boolean;

  constructor(options: CorsOptions, option: string) {
    checkOptions(options, option);
    // `'*'` is any origin, as in the `cors` package.
    const origins = options.origins === '*' ? undefined : options.origins;
    this.#allows = allowing(origins);
    this.#isWildcard = origins === undefined && options.credentials !== true;
    if (options.credentials === true) this.#shared['access-control-allow-credentials'] = 'true';
    const exposed = options.exposedHeaders ?? [];
    if (exposed.length > 0) this.#shared['access-control-expose-headers'] = exposed.join(',');
    this.#preflight['access-control-allow-methods'] = options.methods?.join(',') ?? DEFAULT_METHODS;
    this.#reflectsHeaders = options.headers === undefined;
    if (options.headers !== undefined)
      this.#preflight['access-control-allow-headers'] = options.headers.join(',');
    if (options.maxAge !== undefined) this.#preflight['access-control-max-age'] = String(options.maxAge);
    if (!this.#isWildcard) this.#shared.vary = 'Origin';
  }

  /**
   * Holds the headers of an answer to a request from `origin` (undefined: a request without
   * `Origin`): only `Vary` where the origin is refused. @example policy.hold(res, origin)
   */
  hold(res: ServerResponse, origin: string | undefined): void {
    if (this.#isWildcard) holdHeader(res, 'access-control-allow-origin', '*');
    else if (origin === undefined || !this.#allows(origin)) return holdHeader(res, 'vary', 'Origin');
    else holdHeader(res, 'access-control-allow-origin', origin);
    holdAll(res, this.#shared);
  }

  /**
   * Answers a preflight from `origin` that asks for `requestedHeaders`: 204, with the allow headers
   * only where the origin is allowed. @example policy.answerPreflight(res, origin, 'content-type')
   */
  answerPreflight(res: ServerResponse, origin: string, requestedHeaders: string | undefined): void {
    this.hold(res, origin);
    if (this.#isWildcard || this.#allows(origin)) {
      holdAll(res, this.#preflight);
      if (this.#reflectsHeaders && requestedHeaders !== undefined) {
        holdHeader(res, 'access-control-allow-headers', requestedHeaders);
        const vary = this.#isWildcard
          ? 'Access-Control-Request-Headers'
          : 'Origin, Access-Control-Request-Headers';
        holdHeader(res, 'vary', vary);
      }
    }
    sendEmpty(res, 204);
  }
}

function holdAll(res: ServerResponse, headers: HeaderObject): void {
  for (const name of Object.keys(headers)) holdHeader(res, name, headers[name] as HeaderValue);
}

/**
 * The policy of option `option` (`cors`, or a controller's `@Cors`): `true` allows any origin,
 * `false` or undefined none; anything else of the wrong kind is a boot error naming it.
 *
 * @example corsPolicy(options.cors, 'cors')
 */
export function corsPolicy(value: boolean | CorsOptions | undefined, option: string): CorsPolicy | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return new CorsPolicy({}, option);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw LifecycleErrors.invalidOption(option, value, 'true, false or { origins, credentials, ... }');
  }
  return new CorsPolicy(value, option);
}

function allowing(origins: CorsOptions['origins']): (origin: string) => boolean {
  if (origins === undefined) return () => true;
  if (typeof origins === 'function') return (origin) => origins(origin) === true;
  const list = Array.isArray(origins)
    ? (origins as readonly (string | RegExp)[])
    : [origins as string | RegExp];
  const exact = new Set(list.filter((entry): entry is string => typeof entry === 'string'));
  const patterns = list.filter((entry): entry is RegExp => entry instanceof RegExp);
  if (patterns.length === 0) return (origin) => exact.has(origin);
  return (origin) => exact.has(origin) || patterns.some((pattern) => matchesWhole(pattern, origin));
}

// A global or sticky pattern keeps a position between calls; a copy without those flags does not.
function matchesWhole(pattern: RegExp, origin: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(origin);
}

function checkOptions(options: CorsOptions, option: string): void {
  const { origins, credentials, maxAge } = options;
  const entries = Array.isArray(origins) ? (origins as unknown[]) : [origins];
  if (
    origins !== undefined &&
    typeof origins !== 'function' &&
    !entries.every((entry) => typeof entry === 'string' || entry instanceof RegExp)
  ) {
    throw LifecycleErrors.invalidOption(
      `${option}.origins`,
      origins,
      'origins as strings or RegExps, or a function',
    );
  }
  if (credentials !== undefined && typeof credentials !== 'boolean') {
    throw LifecycleErrors.invalidOption(`${option}.credentials`, credentials, 'true or false');
  }
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0)) {
    throw LifecycleErrors.invalidOption(`${option}.maxAge`, maxAge, 'a whole number of seconds');
  }
  for (const list of ['methods', 'headers', 'exposedHeaders'] as const) {
    const value = options[list];
    if (
      value !== undefined &&
      !(Array.isArray(value) && value.every((name) => typeof name === 'string' && TOKEN.test(name)))
    ) {
      throw LifecycleErrors.invalidOption(`${option}.${list}`, value, 'a list of header or method names');
    }
  }
}

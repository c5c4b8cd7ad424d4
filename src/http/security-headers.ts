import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { HelmetOptions } from 'helmet';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import { holdHeaders, type HeaderObject } from './held-headers';
import { PagePolicy } from './page-policy';
import { rawHeader } from './raw-headers';

/** What option `securityHeaders` accepts besides `true` and `false`: helmet's own options. */
export type SecurityHeadersOptions = HelmetOptions;

const CSP = 'content-security-policy';
const CSP_REPORT_ONLY = 'content-security-policy-report-only';
const HSTS = 'strict-transport-security';
// Answers a browser renders as a document, scripts and all: the ones the document headers govern.
const DOCUMENT = /^\s*(?:text\/html|application\/xhtml\+xml|image\/svg\+xml)\b/i;
/**
 * helmet's headers that protect an answer whatever it holds: one read as another type (a JSON body
 * sniffed as a script), or one read into another origin's page (`Cross-Origin-Resource-Policy`).
 * The rest govern what a document does (frames, scripts, referrers, windows, legacy browsers'
 * filters and downloads) and go on documents alone, as the Content-Security-Policy does: Node
 * validates and writes each header of each answer (about 1,700 instructions apiece, measured by
 * bench/instructions.sh), which for eight a JSON answer has no use for was a fifth of its cost.
 */
const EVERY_ANSWER = new Set(['x-content-type-options', 'cross-origin-resource-policy']);
const NONCE = Symbol('keel.pageNonce');

type Marked = ServerResponse & { [NONCE]?: string };

/**
 * helmet's headers, computed once at boot by running its middleware on a stand-in response: every
 * answer gets `X-Content-Type-Options` and `Cross-Origin-Resource-Policy` ({@link everyAnswer},
 * which the dispatcher holds with the request id in one object made per request);
 * `Strict-Transport-Security` only over HTTPS, or behind a proxy that says so
 * (`X-Forwarded-Proto: https` under Express's `trust proxy`); documents (HTML, XHTML, SVG) the rest,
 * and the Content-Security-Policy with the nonce the page was rendered with.
 *
 * @example
 * const headers = new SecurityHeaders({});
 * holdOwnHeaders(res, { ...headers.everyAnswer }); // X-Content-Type-Options, Cross-Origin-Resource-Policy
 * headers.holdTransportSecurity(req, res, loadHelpers);
 */
export class SecurityHeaders {
  /** The headers every answer carries, by lower-case name: the same object for every request, never changed. */
  readonly everyAnswer: Readonly<HeaderObject>;
  // [name, value] of the headers only documents carry, the policy aside.
  readonly #documentOnly: readonly (readonly [string, string])[];
  readonly #hsts: string | undefined;
  // Express's helpers, which weigh a proxy's X-Forwarded-Proto: given with the first request.
  #loadHelpers: (() => void) | undefined;
  readonly #policy: PagePolicy | undefined;
  readonly #policyName: string;

  constructor(options: SecurityHeadersOptions) {
    const {
      [CSP]: enforced,
      [CSP_REPORT_ONLY]: reportOnly,
      [HSTS]: hsts,
      ...common
    } = helmetHeaders(options);
    this.#policyName = reportOnly === undefined ? CSP : CSP_REPORT_ONLY;
    const policy = (enforced ?? reportOnly) as string | undefined;
    this.#policy = policy === undefined ? undefined : new PagePolicy(policy);
    this.#hsts = hsts as string | undefined;
    const named = Object.entries(common).map(([name, value]) => [name, String(value)] as const);
    this.everyAnswer = Object.fromEntries(named.filter(([name]) => EVERY_ANSWER.has(name)));
    this.#documentOnly = named.filter(([name]) => !EVERY_ANSWER.has(name));
  }

  /**
   * Holds `Strict-Transport-Security` for an answer over HTTPS; `loadHelpers` gives it Express's
   * `req.protocol` where a proxy's `X-Forwarded-Proto` must be weighed.
   * @example headers.holdTransportSecurity(req, res, loadHelpers)
   */
  holdTransportSecurity(req: IncomingMessage, res: ServerResponse, loadHelpers: () => void): void {
    this.#loadHelpers ??= loadHelpers;
    if (this.#hsts !== undefined && isSecureRequest(req, loadHelpers))
      holdHeaders(res, { [HSTS]: this.#hsts });
  }

  // Asked only of pages (their policy may upgrade insecure requests), not of every answer.
  #isSecure(res: ServerResponse): boolean {
    const loadHelpers = this.#loadHelpers;
    return res.req !== undefined && loadHelpers !== undefined && isSecureRequest(res.req, loadHelpers);
  }

  /**
   * The nonce of the page `res` answers with, made on the first call; the page's policy allows the
   * scripts that carry it. Undefined where no policy restricts scripts.
   * @example `<script nonce="${headers.nonce(res)}">`
   */
  readonly nonce = (res: ServerResponse): string | undefined => {
    if (this.#policy === undefined) return undefined;
    const marked = res as Marked;
    marked[NONCE] ??= randomBytes(16).toString('base64');
    return marked[NONCE];
  };

  /**
   * The nonce a template renders into `res`'s page, with the page's Content-Security-Policy held
   * for the answer. @example pageData's `nonce`
   */
  readonly pageNonce = (res: ServerResponse): string | undefined => {
    const nonce = this.nonce(res);
    if (nonce === undefined || this.#policy === undefined) return undefined;
    const value = this.#policy.header(nonce, this.#isSecure(res));
    holdHeaders(res, { [this.#policyName]: value });
    return nonce;
  };

  /**
   * Adds the document headers and the Content-Security-Policy to a document about to be written
   * (`headers`: what `writeHead` was given), whoever wrote it: a template, Express's `res.send`, a
   * file; a header the answer already has keeps its value.
   * @example beforeHead(ServerResponse, headers.sealPage)
   */
  readonly sealPage = (res: ServerResponse, headers: HeaderObject | undefined): void => {
    const type = givenHeader(headers, 'content-type') ?? res.getHeader('content-type');
    if (typeof type !== 'string' || !isDocumentType(type)) return;
    for (const [name, value] of this.#documentOnly)
      if (!hasHeader(res, headers, name)) res.setHeader(name, value);
    const policy = this.#policy;
    const name = this.#policyName;
    if (policy === undefined || hasHeader(res, headers, name)) return;
    res.setHeader(name, policy.header(this.nonce(res) as string, this.#isSecure(res)));
  };
}

// The last type asked about, and its answer: an application answers with a handful of types, the
// same string each time (keel's JSON type above all), so most answers compare one reference.
let lastType = '';
let isLastTypeDocument = false;

function isDocumentType(type: string): boolean {
  if (type !== lastType) {
    lastType = type;
    isLastTypeDocument = DOCUMENT.test(type);
  }
  return isLastTypeDocument;
}

/**
 * The application's security headers: on unless the option is `false`; an object tunes helmet.
 * Options helmet refuses, or a CSP directive given as a function (keel computes the policy once),
 * are a boot error naming the option.
 *
 * @example securityHeaders(options.securityHeaders)
 */
export function securityHeaders(
  value: boolean | SecurityHeadersOptions | undefined,
): SecurityHeaders | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return new SecurityHeaders({});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw LifecycleErrors.invalidOption('securityHeaders', value, "true, false or helmet's options");
  }
  return new SecurityHeaders(value);
}

// Whether the answer about to be written has header `name`, set on `res` or given to `writeHead`.
function hasHeader(res: ServerResponse, headers: HeaderObject | undefined, name: string): boolean {
  return givenHeader(headers, name) !== undefined || res.hasHeader(name);
}

// Header `name` (lower case) of those given to `writeHead`, whatever case they were given in.
function givenHeader(headers: HeaderObject | undefined, name: string): HeaderObject[string] {
  if (headers === undefined) return undefined;
  const exact = headers[name];
  if (exact !== undefined) return exact;
  for (const given of Object.keys(headers)) if (given.toLowerCase() === name) return headers[given];
  return undefined;
}

// A proxy's word counts only where Express's `trust proxy` trusts it: `req.protocol` decides.
function isSecureRequest(req: IncomingMessage, loadHelpers: () => void): boolean {
  if ((req.socket as TLSSocket | null)?.encrypted === true) return true;
  if (rawHeader(req.rawHeaders, 'x-forwarded-proto') === undefined) return false;
  loadHelpers();
  return (req as IncomingMessage & { protocol?: string }).protocol === 'https';
}

// helmet sets its headers through `setHeader`: a stand-in response collects them, lower-cased.
function helmetHeaders(options: SecurityHeadersOptions): HeaderObject {
  checkDirectives(options);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when the headers are on
  const helmet = (require('helmet') as { default: typeof import('helmet').default }).default;
  const headers: HeaderObject = {};
  const collector = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  let failure: unknown;
  try {
    helmet(options)({} as IncomingMessage, collector, (error?: unknown) => (failure = error));
  } catch (error) {
    failure = error;
  }
  if (failure !== undefined) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw LifecycleErrors.invalidOption('securityHeaders', options, `options helmet accepts (${reason})`);
  }
  return headers;
}

function checkDirectives(options: SecurityHeadersOptions): void {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' && csp !== null ? csp.directives : undefined;
  for (const [name, values] of Object.entries(directives ?? {})) {
    if (values !== null && typeof values === 'object' && [...values].some((v) => typeof v === 'function')) {
      throw LifecycleErrors.invalidOption(
        `securityHeaders.contentSecurityPolicy.directives.${name}`,
        '(a function)',
        "strings: keel computes the policy once, at boot, and adds each page's nonce to script-src itself",
      );
    }
  }
}

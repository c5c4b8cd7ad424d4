import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsPolicy } from './cors-policy';
import type { Endpoint } from './endpoint';
import { rawHeader } from './raw-headers';

/** What the rules ask of the router: the endpoint of a method, URL and version, and so its own policy. */
export interface PolicyLookup {
  readonly router: {
    find(
      method: string,
      url: string,
      version?: string,
    ): { readonly endpoint: Pick<Endpoint, 'cors'> | undefined } | undefined;
  };
  readonly versionOf: ((req: IncomingMessage) => string | undefined) | undefined;
}

/**
 * Which CORS policy answers each request: the application's (option `cors`), or the one a route's
 * controller declares with `@Cors`, which replaces it for its routes. Asked first of every request,
 * before the body, the middleware and routing: a preflight is answered here, 204, and any other
 * request gets its headers held for whatever answers it, errors included. An application without
 * any policy pays one check; only one with `@Cors` routes looks each request's route up.
 *
 * @example
 * if (rules.isOn && rules.answer(req, res, { router, versionOf })) return; // a preflight, answered
 */
export class CorsRules {
  readonly #application: CorsPolicy | undefined;
  #hasRoutePolicies = false;

  constructor(application: CorsPolicy | undefined) {
    this.#application = application;
  }

  /** Whether any policy is in force: the application's, or a route's. */
  get isOn(): boolean {
    return this.#application !== undefined || this.#hasRoutePolicies;
  }

  /** Told when a route with its own `@Cors` is added: from then on each request's route decides. */
  noteRoutePolicy(): void {
    this.#hasRoutePolicies = true;
  }

  /**
   * Answers `req` if it is a preflight (OPTIONS with `Origin` and `Access-Control-Request-Method`)
   * under a policy, and says so; otherwise holds the CORS headers of its answer and says false.
   * @example rules.answer(req, res, { router, versionOf })
   */
  answer(req: IncomingMessage, res: ServerResponse, lookup: PolicyLookup): boolean {
    const { rawHeaders } = req;
    const origin = rawHeader(rawHeaders, 'origin');
    const asked =
      origin !== undefined && req.method === 'OPTIONS'
        ? rawHeader(rawHeaders, 'access-control-request-method')
        : undefined;
    const policy = this.#policyFor(req, asked ?? (req.method as string), lookup);
    if (policy === undefined) return false;
    if (asked === undefined || origin === undefined) {
      policy.hold(res, origin);
      return false;
    }
    policy.answerPreflight(res, origin, rawHeader(rawHeaders, 'access-control-request-headers'));
    return true;
  }

  // A route's own policy (false: none), else the application's, for any path, routed or not.
  #policyFor(
    req: IncomingMessage,
    method: string,
    { router, versionOf }: PolicyLookup,
  ): CorsPolicy | undefined {
    if (!this.#hasRoutePolicies) return this.#application;
    const url = req.url as string;
    const version = versionOf === undefined ? undefined : versionOf(req);
    const match =
      router.find(method, url, version) ?? (method === 'HEAD' ? router.find('GET', url, version) : undefined);
    const own = match?.endpoint?.cors;
    if (own === undefined) return this.#application;
    return own === false ? undefined : own;
  }
}

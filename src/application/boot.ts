import { resolveOptions, type ApplicationOptions, type ShutdownSettings } from './options';
import { Container } from '../container/container';
import { callBootHook } from '../lifecycle/lifecycle-hooks';
import type { ModuleImport } from '../container/module-definition';
import type { ProviderOverrides } from '../container/module-graph';
import type { Token } from '../container/token';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_MIDDLEWARE } from '../hooks/hook-tokens';
import { REQUEST_WATCHERS } from '../http/request-watchers';
import { DATABASE_ERROR_DESCRIBERS } from '../database/error-describers';
import { Pipeline } from './pipeline';
import { ApplicationStatus } from '../lifecycle/application-status';
import { BootstrapHooks } from '../lifecycle/bootstrap-hooks';
import { LoadMonitor } from '../http/load-monitor';
import { shedLoad } from '../http/shed-load';
import { ERROR_SHAPE, resolveErrorShape, type ErrorShape } from '../http/error-shape';
import { createLogger, isSilent, LOGGER, type Logger } from '../logging/logger';
import { correlatedLogger } from '../observability/correlated-logger';
import { APP_ROUTES } from '../routing/app-routes';
import { compileController } from '../routing/route-compiler';
import { describeJobsUnavailable } from '../jobs/jobs-unavailable';
import { describeRateLimitUnavailable } from '../ratelimit/rate-limit-unavailable';
import type { PreparedHandler } from '../http/exchange';
import type { WrappedRoute } from '../routing/route-endpoint';
import type { LimitableRoute } from '../ratelimit/rate-limits';
import { RateLimits, withoutRateLimits } from '../ratelimit/rate-limits';
import { Authentication } from '../auth/authentication';
import { SESSION_KEYS } from '../session/session-keys';
import { withoutAuthentication } from '../auth/without-authentication';
import { Metrics } from '../observability/metrics';
import { GatewayServer } from '../realtime/gateway-server';

// What errors without a status of their own mean to the client, asked in order.
const ERROR_DESCRIBERS = [
  ...DATABASE_ERROR_DESCRIBERS,
  describeRateLimitUnavailable,
  describeJobsUnavailable,
];

/** What {@link createApplication} assembles an application from. @internal */
export interface ApplicationParts {
  readonly container: Container;
  readonly pipeline: Pipeline;
  readonly status: ApplicationStatus;
  readonly logger: Logger;
  readonly settings: ShutdownSettings;
  readonly bootstrapHooks: BootstrapHooks;
  /** The shape of error answers, for those written outside the pipeline (a failed bootstrap, CONNECT). */
  readonly errorShape: ErrorShape;
  /** The `@Gateway` classes, served on the application's server once it listens. */
  readonly gateways: GatewayServer;
}

/**
 * Everything {@link createApplication} does but wrapping the parts, with `overrides` replacing
 * providers: what `keel/testing` boots through. @internal
 */
export async function bootParts(
  root: ModuleImport,
  options: ApplicationOptions,
  overrides: ProviderOverrides = new Map(),
): Promise<ApplicationParts> {
  const settings = resolveOptions(options);
  const lines = createLogger(settings.logger);
  // Decided here, once: a silent application prepares no line, and one without the access log
  // gives no request a listener.
  const logger = isSilent(lines) ? lines : correlatedLogger(lines);
  const accessLogger = settings.accessLog && !isSilent(lines) ? lines : undefined;
  const errorShape = resolveErrorShape(settings.errors, logger);
  const status = new ApplicationStatus(settings.shutdownTimeoutMs);
  const load = new LoadMonitor(settings.loadShedding, logger);
  const container = await Container.create(
    root,
    new Map<Token, unknown>([
      [ApplicationStatus, status],
      [LoadMonitor, load],
      [LOGGER, logger],
      [ERROR_SHAPE, errorShape],
    ]),
    overrides,
  );
  const pipeline = new Pipeline({
    resolve: (type) => container.construct(type),
    logger,
    accessLogger,
    watchers: container.getAll(REQUEST_WATCHERS),
    requestIdHeader: settings.requestIdHeader,
    isRequestScoped: settings.requestScope,
    views: settings.views,
    bodyLimit: settings.bodyLimit,
    errorDescribers: ERROR_DESCRIBERS,
    errorShape,
    prefix: settings.prefix,
    cookies: {
      keys: settings.cookieSecrets ?? (container.has(SESSION_KEYS) ? container.get(SESSION_KEYS) : undefined),
      isSecure: process.env.NODE_ENV === 'production',
    },
    globals: {
      guards: container.getAll(APP_GUARD),
      interceptors: container.getAll(APP_INTERCEPTOR),
      filters: container.getAll(APP_FILTER),
    },
    limit: behindRateLimitAndAuthentication(container),
    // Shedding comes before any phase: an overloaded process reads no body of a request it turns away.
    refuse: load.isShedding ? shedLoad(load, errorShape) : undefined,
    cors: settings.cors,
    answers: settings.answers,
    security: settings.securityHeaders,
    versioning: settings.versioning,
  });
  // Middleware that modules provide (sessions) runs before what the application adds with app.use.
  pipeline.use(container.getAll(APP_MIDDLEWARE));
  for (const { type, instance, resolve } of container.controllers()) {
    pipeline.router.add(...compileController(type, instance, resolve, settings.prefix));
  }
  for (const registrar of container.getAll(APP_ROUTES)) registrar.register(pipeline.router);
  const gateways = GatewayServer.from(
    container,
    logger,
    container.has(Metrics) ? container.get(Metrics) : undefined,
  );
  pipeline.router.add(...gateways.routes());

  await callBootHook(container.instances(), 'onModuleInit');
  const bootstrapHooks = new BootstrapHooks({
    instances: () => container.instances(),
    status,
    logger,
    // Booting (the embedded database's start among the hooks) is not overload: watched from here on.
    onDone: () => load.watch(),
  });
  return { container, pipeline, status, logger, settings, bootstrapHooks, errorShape, gateways };
}

// A route's rate limit comes first, so that credentials are not tried faster than it allows; then
// who is calling, and what they may do; then its guards.
function behindRateLimitAndAuthentication(container: Container) {
  const limit = container.has(RateLimits) ? container.get(RateLimits).limit : withoutRateLimits;
  const authenticate = container.has(Authentication)
    ? container.get(Authentication).wrap
    : withoutAuthentication;
  return (route: LimitableRoute & WrappedRoute, handler: PreparedHandler): PreparedHandler =>
    limit(route, authenticate(route, handler));
}

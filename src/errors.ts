import { CliErrors } from './cli/cli-errors';
import { ConfigErrors } from './config/config-errors';
import { ContainerErrors } from './container/container-errors';
import { DatabaseErrors } from './database/database-errors';
import { HookErrors } from './hooks/hook-errors';
import { HandlerErrors } from './http/handler-errors';
import { LifecycleErrors } from './lifecycle/lifecycle-errors';
import { MetricsErrors } from './observability/metrics-errors';
import { MigrationErrors } from './cli/migration-errors';
import { OpenApiErrors } from './openapi/openapi-errors';
import { RateLimitErrors } from './ratelimit/rate-limit-errors';
import { RoutingErrors } from './routing/routing-errors';
import { SessionErrors } from './session/session-errors';

export { FrameworkError, messageOf } from './framework-error';
export { HttpError, type FieldErrors, type HttpErrorOptions } from './http/http-error';

/**
 * The catalogue of keel's own errors, one builder per code, gathered from the areas that raise them.
 *
 * @example
 * throw Errors.routeConflict('GET', '/x', 'A.index', 'B.index');
 */
export const Errors = {
  ...ContainerErrors,
  ...RoutingErrors,
  ...HandlerErrors,
  ...HookErrors,
  ...LifecycleErrors,
  ...CliErrors,
  ...ConfigErrors,
  ...DatabaseErrors,
  ...MetricsErrors,
  ...MigrationErrors,
  ...OpenApiErrors,
  ...SessionErrors,
  ...RateLimitErrors,
};

/** The codes of errors keel raises itself, at boot or while serving: each written once, in its builder. */
export type FrameworkErrorCode = ReturnType<(typeof Errors)[keyof typeof Errors]>['code'];

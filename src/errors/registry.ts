import { AuthErrors } from './auth-errors';
import { CliErrors } from './cli-errors';
import { ConfigErrors } from './config-errors';
import { ContainerErrors } from './container-errors';
import { DatabaseAnswers } from './database-answers';
import { DatabaseErrors } from './database-errors';
import { FileErrors } from './file-errors';
import { HandlerErrors } from './handler-errors';
import { HookErrors } from './hook-errors';
import { JobErrors } from './job-errors';
import { LifecycleErrors } from './lifecycle-errors';
import { MetricsErrors } from './metrics-errors';
import { MigrationErrors } from './migration-errors';
import { OpenApiErrors } from './openapi-errors';
import { OutputErrors } from './output-errors';
import { RateLimitErrors } from './rate-limit-errors';
import { RequestErrors } from './request-errors';
import { RoutingErrors } from './routing-errors';
import { SessionErrors } from './session-errors';
import { StreamErrors } from './stream-errors';
import { RealtimeErrors } from './realtime-errors';
import { TestingErrors } from './testing-errors';

/**
 * Every group of the catalogue, by name: the one place that gathers them, so that a test can read
 * every key and code and check that none is given twice.
 *
 * @example
 * Object.values(ERROR_GROUPS).flatMap((group) => Object.values(group).map((entry) => entry.code));
 */
export const ERROR_GROUPS = {
  ContainerErrors,
  RoutingErrors,
  HandlerErrors,
  HookErrors,
  LifecycleErrors,
  CliErrors,
  ConfigErrors,
  DatabaseErrors,
  DatabaseAnswers,
  MetricsErrors,
  MigrationErrors,
  OpenApiErrors,
  SessionErrors,
  RateLimitErrors,
  JobErrors,
  TestingErrors,
  RequestErrors,
  AuthErrors,
  StreamErrors,
  RealtimeErrors,
  OutputErrors,
  FileErrors,
} as const;

type Groups = typeof ERROR_GROUPS;
// Every group's builders in one type (the intersection of the groups): keys are unique across
// groups, as the registry's test checks.
type Intersection<U> = (U extends unknown ? (each: U) => void : never) extends (each: infer All) => void
  ? All
  : never;
type AllBuilders = Intersection<Groups[keyof Groups]>;

/**
 * The catalogue of keel's own errors, one builder per key, each also its entry (`code`, and
 * `status` or `exitCode` where it has one).
 *
 * @example
 * throw Errors.routeConflict('GET', '/x', 'A.index', 'B.index');
 */
export const Errors = Object.freeze(Object.assign({}, ...Object.values(ERROR_GROUPS))) as AllBuilders;

type CodesOf<G> = { [K in keyof G]: G[K] extends { readonly code: infer C } ? C : never }[keyof G];

/**
 * The codes of errors keel raises or answers itself, at boot or while serving: each written once, in its entry.
 *
 * @example
 * const code: FrameworkErrorCode = 'E_ROUTE_CONFLICT';
 */
export type FrameworkErrorCode = { [G in keyof Groups]: CodesOf<Groups[G]> }[keyof Groups];

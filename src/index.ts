// First: every module loaded after it is compiled once, for every later start (see its comment).
import './compile-cache';
import 'reflect-metadata';

export { createApplication } from './application/create-application';
export type { Application, BoundAddress } from './application/application';
export type { ApplicationOptions } from './application/options';
export type { LoadSheddingOptions } from './http/load-shedding-options';
export type {
  DescribedError,
  ErrorBodySchema,
  ErrorFormat,
  ErrorFormatter,
  ErrorsOption,
} from './http/error-shape';
export { ConfigModule, type ConfigModuleOptions } from './config/config-module';
export { loadConfig, type ConfigSchema, type ConfigSources } from './config/load-config';
export type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from './lifecycle/lifecycle-hooks';
export type { DynamicModule, ModuleImport, ModuleMetadata } from './container/module-definition';
export type { OptionsFactory } from './container/options-factory';
export type {
  ClassProvider,
  ExistingProvider,
  FactoryProvider,
  OptionalDependency,
  Provider,
  ValueProvider,
} from './container/provider';
export { InjectionToken, type Class, type Token } from './container/token';
export { ApiResource, Controller, Resource } from './decorators/controller';
export { Inject, Injectable, Optional } from './decorators/injectable';
export { Global, Module } from './decorators/module';
export { HttpCode } from './decorators/http-code';
export {
  Catch,
  SetMetadata,
  SkipCsrf,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UseMiddleware,
} from './decorators/hooks';
export { Cors } from './decorators/cors';
export type { CorsOptions, CorsOrigin } from './http/cors-policy';
export type { SecurityHeadersOptions } from './http/security-headers';
export type { VersioningOptions } from './http/versioning';
export { Version } from './decorators/version';
export { Body, Cookies, Ctx, Form, Headers, Param, Query, createParamDecorator } from './decorators/params';
export type { CookieOptions, CookieReadOptions } from './http/cookies';
export { CacheControl, Header } from './decorators/response-header';
export { All, Delete, Get, Head, Options, Patch, Post, Put, type RouteOptions } from './decorators/route';
export { LastEventId, Sse, type SseRouteOptions } from './decorators/sse';
export { Returns, SerializeOptions } from './decorators/output';
export type { OutputOptions } from './http/output-shaper';
export type { SseOptions } from './http/event-stream';
export type { SendFileOptions } from './http/file-answer';
export type { CompressionOptions } from './http/answer-settings';
export type { SseEvent } from './http/event-frame';
export {
  ConnectedSocket,
  Gateway,
  MessageBody,
  OnConnect,
  OnDisconnect,
  OnMessage,
  type GatewayOptions,
} from './realtime/gateway-decorators';
export { RealtimeSocket } from './realtime/realtime-socket';
export { Broadcast } from './realtime/broadcast';
export type { ChannelEvent } from './realtime/channel-hub';
export { RealtimeModule } from './realtime/realtime-module';
export type { RealtimeModuleOptions } from './realtime/realtime-options';
export { RealtimeTables1764633600000 } from './realtime/realtime-tables';
// From their own files, not the catalogue's index: the catalogue (every error of every part)
// loads only where it is listed.
export { FrameworkError } from './errors/framework-error';
export { HttpError, type FieldErrors, type HttpErrorOptions } from './errors/http-error';
export type { FrameworkErrorCode } from './errors/registry';
export {
  DatabaseModule,
  type DatabaseOptionsSource,
  type DatabaseFactoryOptions,
  type DatabaseConnectOptions,
} from './database/database-module';
export {
  embeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  type PostgresConnection,
} from './embedded/embedded-postgres';
export { InjectRepository } from './database/inject-repository';
export { initializeOnce } from './database/initialize-once';
export { HealthModule, type HealthModuleFactory } from './health/health-module';
export {
  httpCheck,
  redisCheck,
  type HttpCheckOptions,
  type PingableClient,
} from './health/dependency-checks';
export type { CheckDefinition, CheckFunction, CheckProvider, HealthCheck } from './health/health-check';
export { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_MIDDLEWARE } from './hooks/hook-tokens';
export type {
  CallNext,
  CanActivate,
  ExceptionFilter,
  Interceptor,
  ParamTarget,
  PipeTransform,
} from './hooks/hook-types';
export { ParseBoolPipe, ParseIntPipe, ParseUUIDPipe } from './hooks/pipes';
export type { HealthModuleOptions, HealthOptions } from './health/health-options';
export { registerHealthRoutes } from './health/register-health-routes';
export type { BindResult } from './http/bind';
export type {
  SchemaOutput,
  StandardIssue,
  StandardResult,
  StandardSchemaV1,
} from './binding/standard-schema';
export { PartialType } from './binding/partial-type';
export { Context, type SessionData } from './http/context';
export type { UploadedFile, UploadLimits } from './http/uploads';
export type { RouteInfo } from './http/route-info';
export type { MiddlewareClass } from './http/middleware';
export { ApplicationStatus } from './lifecycle/application-status';
export { Authenticates, type SecurityScheme } from './openapi/authenticates';
export { documentedRule } from './openapi/documented-rule';
export type { JsonSchema } from './openapi/json-schema';
export type { OpenApiDocument, OpenApiInfo } from './openapi/openapi-document';
export { OpenApiModule } from './openapi/openapi-module';
export type { OpenApiOptions } from './openapi/openapi-options';
export { Cron, Job, type JobOptions } from './jobs/job-decorators';
export type { RunningJob } from './jobs/job-handlers';
export { Jobs, type EnqueueOptions } from './jobs/jobs';
export { JobsModule } from './jobs/jobs-module';
export type { JobsModuleOptions } from './jobs/jobs-options';
export { LOGGER, type Logger } from './logging/logger';
export { currentRequest, type CurrentRequest } from './http/request-state';
export {
  Metrics,
  type Counter,
  type Gauge,
  type Histogram,
  type MetricDefinition,
} from './observability/metrics';
export { MetricsModule } from './observability/metrics-module';
export type { MetricsModuleOptions } from './observability/metrics-options';
export type { ResourceAction, ResourceOptions, ResourceOutputs } from './routing/resource-table';
export type { RouteHandler } from './routing/route';
export type { FunctionRouteOptions, Router } from './routing/router';
export type { RouteParams, RouteQuery } from './http/route-info';
export { RateLimit } from './ratelimit/rate-limit-decorator';
export { RateLimitModule, type RateLimitModuleFactory } from './ratelimit/rate-limit-module';
export type {
  RateLimitKey,
  RateLimitModuleOptions,
  RateLimitOptions,
  RateLimitStore,
} from './ratelimit/rate-limit-options';
export { SessionModule } from './session/session-module';
export type { SessionModuleOptions, SessionSecret } from './session/session-options';
export { hashPassword, needsRehash, verifyPassword, type PasswordOptions } from './auth/passwords';
export type { AuthUser } from './http/auth-user';
export { Auth, type ApiTokenIssuer } from './auth/auth';
export { AuthModule, type AuthModuleOptions, type UserLookup } from './auth/auth-module';
export { AuthTables1764547200000 } from './auth/auth-tables';
export { Authenticated, CurrentUser, Public } from './auth/auth-decorators';
export {
  apiTokens,
  type ApiTokensOptions,
  type ApiTokensStrategy,
  type IssuedToken,
  type IssueTokenOptions,
} from './auth/api-tokens';
export { jwt, type JwtOptions, type JwtStrategy, type SignOptions } from './auth/jwt';
export { Can, Policy, type CanOptions } from './auth/policies';
export { session, type SessionOptions, type SessionStrategy } from './auth/session-strategy';
export type { AuthClaims, AuthStrategy, Recognition } from './auth/strategy';

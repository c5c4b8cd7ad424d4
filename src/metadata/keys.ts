/**
 * The metadata keys keel writes on decorated classes. Symbols keep them private to keel, so no user
 * metadata can collide with them and nothing lives on `global`.
 */
export const MetadataKey = {
  injectable: Symbol('keel:injectable'),
  injectTokens: Symbol('keel:inject-tokens'),
  optionalParams: Symbol('keel:optional-params'),
  module: Symbol('keel:module'),
  global: Symbol('keel:global'),
  controller: Symbol('keel:controller'),
  routes: Symbol('keel:routes'),
  params: Symbol('keel:params'),
  guards: Symbol('keel:guards'),
  interceptors: Symbol('keel:interceptors'),
  filters: Symbol('keel:filters'),
  middleware: Symbol('keel:middleware'),
  catches: Symbol('keel:catches'),
  jobs: Symbol('keel:jobs'),
  custom: Symbol('keel:custom'),
  /** On a validated property: the JSON Schema its application-made rules state (`documentedRule`). */
  ruleSchemas: Symbol('keel:rule-schemas'),
  /** On a guard class: the security scheme it authenticates with (`@Authenticates`). */
  securityScheme: Symbol('keel:security-scheme'),
  /** Under `custom`: the route takes unsafe methods without a CSRF token (`@SkipCsrf()`, API resources). */
  skipCsrf: Symbol('keel:skip-csrf'),
  /** Under `custom`: the route answers probes (health, metrics), which the access log keeps at debug. */
  probeRoute: Symbol('keel:probe-route'),
  /** Under `custom`: the route's `@RateLimit`, the method's over the class's. */
  rateLimit: Symbol('keel:rate-limit'),
  /** Under `custom`: the answers a keel route documents itself (`RouteDoc.answers`), such as readiness's 503. */
  routeAnswers: Symbol('keel:route-answers'),
  /** Under `custom`: the status a returned value answers with (`@HttpCode`). */
  httpCode: Symbol('keel:http-code'),
  /** Under `custom`: the route needs no user (`@Public()`). */
  authPublic: Symbol('keel:auth-public'),
  /** Under `custom`: the strategies that may authenticate the route (`@Authenticated(...)`). */
  authStrategies: Symbol('keel:auth-strategies'),
  /** Under `custom`: what the current user must be allowed to do (`@Can(...)`). */
  authCan: Symbol('keel:auth-can'),
  /** Under `custom`: the API versions the route serves (`@Version(...)`), the method's over the class's. */
  version: Symbol('keel:version'),
  /** Under `custom`: the route's own CORS policy (`@Cors(...)`), the method's over the class's. */
  cors: Symbol('keel:cors'),
  /** Under `custom`: the route answers with Server-Sent Events (`@Sse()`), and its stream's options. */
  eventStream: Symbol('keel:event-stream'),
  /** Under `custom`: the response headers a handler's answers carry (`@Header(name, value)`), in order. */
  responseHeaders: Symbol('keel:response-headers'),
  /** Under `custom`: the handler's `@SerializeOptions()`, what class-transformer shapes its answers with. */
  serializeOptions: Symbol('keel:serialize-options'),
  /** Under `custom`: what the handler answers with (`@Returns()`): a class, or a Standard Schema that parses it. */
  returns: Symbol('keel:returns'),
  /** On a policy class: the entity it decides for (`@Policy(Entity)`). */
  policy: Symbol('keel:policy'),
} as const;

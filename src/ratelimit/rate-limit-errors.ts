import { describeValue, FrameworkError } from '../framework-error';

/** The boot errors of rate limits: one builder per code, so each message is written once. */
export const RateLimitErrors = {
  noRateLimitModule(route: string) {
    return new FrameworkError(
      'E_RATE_LIMIT_WITHOUT_MODULE',
      `${route} has @RateLimit, but the application does not import RateLimitModule.\n` +
        `Fix: add RateLimitModule.forRoot() (or forRoot({ store: 'postgres' })) to the root module's imports.`,
    );
  },

  invalidRateLimit(where: string, option: string, value: unknown, expected: string) {
    // JSON would show NaN and Infinity as null.
    const shown = typeof value === 'number' ? String(value) : describeValue(value);
    return new FrameworkError(
      'E_INVALID_RATE_LIMIT',
      `${where} has ${option} ${shown}: expected ${expected}.\n` +
        `Fix: e.g. @RateLimit({ limit: 5, windowS: 60 }), or key: (ctx) => ctx.req.get('x-api-key') ?? ctx.req.ip.`,
    );
  },

  unknownLimit(route: string, name: string, known: readonly string[]) {
    const given =
      known.length > 0 ? `it names ${known.map((each) => `'${each}'`).join(', ')}` : 'it names none';
    return new FrameworkError(
      'E_UNKNOWN_RATE_LIMIT',
      `${route} has @RateLimit('${name}'), but RateLimitModule.forRoot's limits have no '${name}' (${given}).\n` +
        `Fix: add limits: { '${name}': { limit: 60, windowS: 60 } } to RateLimitModule.forRoot, or correct the name.`,
    );
  },

  invalidStore(value: unknown) {
    return new FrameworkError(
      'E_INVALID_RATE_LIMIT_STORE',
      `RateLimitModule.forRoot's store is ${describeValue(value)}: expected 'memory', 'postgres' or { redis: () => client }.`,
    );
  },

  noRedisClient(client: unknown) {
    return new FrameworkError(
      'E_INVALID_RATE_LIMIT_STORE',
      `RateLimitModule.forRoot's store { redis } gave ${describeValue(client)}, not a Redis client.\n` +
        `Fix: return the application's client, e.g. { redis: () => new Redis(process.env.REDIS_URL) } (ioredis).`,
    );
  },

  storeNeedsDatabase(found: string) {
    return new FrameworkError(
      'E_RATE_LIMIT_NEEDS_DATABASE',
      `RateLimitModule.forRoot({ store: 'postgres' }) keeps the budgets in the application's PostgreSQL, but ${found}.\n` +
        `Fix: import DatabaseModule.forRoot({ type: 'postgres', ... }) (the embedded database works too), ` +
        `or choose store 'memory' or { redis: () => client }.`,
    );
  },
};

import { describeValue } from './describe-value';
import { defineErrors } from './error-entry';

/**
 * The errors of rate limits, at boot and in answers: one entry per code, so each message is written once.
 *
 * @example
 * RateLimitErrors.noRateLimitModule.code; // 'E_RATE_LIMIT_WITHOUT_MODULE'
 */
export const RateLimitErrors = defineErrors({
  noRateLimitModule: {
    code: 'E_RATE_LIMIT_WITHOUT_MODULE',
    message: (route: string) =>
      `${route} has @RateLimit, but the application does not import RateLimitModule.\n` +
      `Fix: add RateLimitModule.forRoot() (or forRoot({ store: 'postgres' })) to the root module's imports.`,
  },

  invalidRateLimit: {
    code: 'E_INVALID_RATE_LIMIT',
    message: (where: string, option: string, value: unknown, expected: string) =>
      // JSON would show NaN and Infinity as null.
      `${where} has ${option} ${typeof value === 'number' ? String(value) : describeValue(value)}: expected ${expected}.\n` +
      `Fix: e.g. @RateLimit({ limit: 5, windowS: 60 }), or key: (ctx) => ctx.req.get('x-api-key') ?? ctx.req.ip.`,
  },

  unknownLimit: {
    code: 'E_UNKNOWN_RATE_LIMIT',
    message: (route: string, name: string, known: readonly string[]) => {
      const given =
        known.length > 0 ? `it names ${known.map((each) => `'${each}'`).join(', ')}` : 'it names none';
      return (
        `${route} has @RateLimit('${name}'), but RateLimitModule.forRoot's limits have no '${name}' (${given}).\n` +
        `Fix: add limits: { '${name}': { limit: 60, windowS: 60 } } to RateLimitModule.forRoot, or correct the name.`
      );
    },
  },

  invalidStore: {
    code: 'E_INVALID_RATE_LIMIT_STORE',
    message: (value: unknown) =>
      `RateLimitModule.forRoot's store is ${describeValue(value)}: expected 'memory', 'postgres' or { redis: () => client }.`,
  },

  noRedisClient: {
    code: 'E_NO_REDIS_CLIENT',
    message: (client: unknown) =>
      `RateLimitModule.forRoot's store { redis } gave ${describeValue(client)}, not a Redis client.\n` +
      `Fix: return the application's client, e.g. { redis: () => new Redis(process.env.REDIS_URL) } (ioredis).`,
  },

  storeNeedsDatabase: {
    code: 'E_RATE_LIMIT_NEEDS_DATABASE',
    message: (found: string) =>
      `RateLimitModule.forRoot({ store: 'postgres' }) keeps the budgets in the application's PostgreSQL, but ${found}.\n` +
      `Fix: import DatabaseModule.forRoot({ type: 'postgres', ... }) (the embedded database works too), ` +
      `or choose store 'memory' or { redis: () => client }.`,
  },

  tooManyRequests: {
    code: 'E_TOO_MANY_REQUESTS',
    status: 429,
    message: (_headers: Readonly<Record<string, string>>) => 'too many requests',
    extras: (headers: Readonly<Record<string, string>>) => ({ headers }),
  },

  // Built by RateLimitUnavailableError: what the log says of a request a failed store refused.
  storeRefused: {
    code: 'E_RATE_LIMIT_STORE_REFUSED',
    message: (route: string) => `${route}: the rate limit store failed, and failClosed refuses the request`,
  },

  // What the client of that request is told.
  rateLimitUnavailable: {
    code: 'E_RATE_LIMIT_UNAVAILABLE',
    status: 503,
    message: () => 'rate limit unavailable',
  },
});

import { describeValue } from './describe-value';
import { defineErrors } from './error-entry';

/**
 * The errors of WebSocket gateways and of `RealtimeModule`: one entry per code, so each message is written once.
 *
 * @example
 * RealtimeErrors.upgradeRequired.code; // 'E_UPGRADE_REQUIRED'
 */
export const RealtimeErrors = defineErrors({
  invalidGateway: {
    code: 'E_INVALID_GATEWAY',
    message: (gateway: string, problem: string) => `gateway ${gateway}: ${problem}`,
  },

  gatewayConflict: {
    code: 'E_GATEWAY_CONFLICT',
    message: (path: string, first: string, second: string) =>
      `${first} and ${second} are both @Gateway('${path}').\n` + `Fix: give each gateway a path of its own.`,
  },

  invalidGatewayOption: {
    code: 'E_INVALID_GATEWAY_OPTION',
    message: (gateway: string, option: string, value: unknown) =>
      `@Gateway on ${gateway}: ${option} is ${describeValue(value)}; it must be a whole number above 0.`,
  },

  invalidRealtimeOption: {
    code: 'E_INVALID_REALTIME_OPTION',
    message: (option: string, value: unknown, expected: string) =>
      `RealtimeModule.forRoot: ${option} is ${describeValue(value)}; it must be ${expected}.`,
  },

  invalidRealtimeTransport: {
    code: 'E_INVALID_REALTIME_TRANSPORT',
    message: (problem: string) =>
      `RealtimeModule.forRoot: ${problem}.\n` +
      `Fix: RealtimeModule.forRoot() for the application's PostgreSQL (the default), ` +
      `or RealtimeModule.forRoot({ via: 'redis', redis: () => client }) for its Redis (an ioredis client).`,
  },

  noBroadcast: {
    code: 'E_NO_BROADCAST',
    message: () =>
      `a socket joined a channel, and the application imports no RealtimeModule.\n` +
      `Fix: import RealtimeModule.forRoot() (with DatabaseModule on PostgreSQL) in the root module.`,
  },

  broadcastNeedsPostgres: {
    code: 'E_BROADCAST_NEEDS_POSTGRES',
    message: (problem: string) =>
      `RealtimeModule broadcasts through the application's PostgreSQL, and ${problem}.\n` +
      `Fix: import DatabaseModule.forRoot({ type: 'postgres', ..., migrations: [RealtimeTables1764633600000, ...] }).`,
  },

  broadcastNeedsRedis: {
    code: 'E_BROADCAST_NEEDS_REDIS',
    message: (problem: string) =>
      `RealtimeModule.forRoot({ via: 'redis' }) broadcasts through the application's Redis, and ${problem}.\n` +
      `Fix: return the application's ioredis client, e.g. RealtimeModule.forRoot({ via: 'redis', redis: () => new Redis(process.env.REDIS_URL) }).`,
  },

  upgradeRequired: {
    code: 'E_UPGRADE_REQUIRED',
    status: 426,
    message: () => 'this path serves WebSocket connections only',
  },

  upgradeRefused: {
    code: 'E_UPGRADE_REFUSED',
    status: 503,
    message: () => 'shutting down; connect again',
  },
});

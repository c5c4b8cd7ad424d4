import { createHmac } from 'node:crypto';

/** The HS256 secret the "JWT verify" configuration verifies with. */
export const BENCH_JWT_SECRET = 'the bench signs and verifies with this 32+ byte secret';

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A valid HS256 token for the bench's user, signed here (no jose on the load side): what every
 * request of the "JWT verify" configuration carries. It expires in a day, long past any run.
 */
export function benchJwt(): string {
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'bench', iat: now, exp: now + 86_400 })}`;
  return `${unsigned}.${createHmac('sha256', BENCH_JWT_SECRET).update(unsigned).digest('base64url')}`;
}

import { randomBytes } from 'node:crypto';
import type { SampleConfig } from '../config/sample-config';

/** The key that signs the sessions, and whether it was made up for this process. */
export interface SessionSecretChoice {
  readonly secret: string;
  readonly isRandom: boolean;
}

/**
 * `SESSION_SECRET`, or, outside production, a random key for this process (whose sessions then end
 * with it); in production a missing secret stops the start, since each replica would make its own.
 */
export function chooseSessionSecret(
  config: Pick<SampleConfig, 'SESSION_SECRET' | 'NODE_ENV'>,
): SessionSecretChoice {
  if (config.SESSION_SECRET) return { secret: config.SESSION_SECRET, isRandom: false };
  if (config.NODE_ENV === 'production') {
    throw new Error(
      'SESSION_SECRET is not set, and NODE_ENV is production: every replica would sign sessions with a key of its own, lost at each restart. Set SESSION_SECRET to a long random string shared by the replicas',
    );
  }
  return { secret: randomBytes(32).toString('hex'), isRandom: true };
}

import type { OptionalDependency } from '../container/provider';
import type { Token } from '../container/token';

/** What `secret` may give: one key, or several to rotate (the first signs, every one verifies). */
export type SessionSecret = string | readonly string[];

/** Options of {@link SessionModule.forRoot}. */
export interface SessionModuleOptions {
  /**
   * The key(s) that sign the session cookie, read once at boot (sync or async), given the instances
   * of `inject`. Replicas with the same keys read each other's sessions.
   */
  readonly secret: (...injected: never[]) => SessionSecret | Promise<SessionSecret>;
  /** The tokens whose instances `secret` receives, in order (the configuration). Default: none. */
  readonly inject?: readonly (Token | OptionalDependency)[];
  /** The cookie's name; default `keel.session`. */
  readonly cookieName?: string;
  /** How long the cookie lives, in milliseconds; default: until the browser closes. */
  readonly maxAgeMs?: number;
}

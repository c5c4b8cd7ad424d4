import type { AuthClaims } from './strategy';

interface Verified {
  readonly token: string;
  readonly claims: AuthClaims;
  /** `Date.now()` past which the token is verified afresh: its expiry with the tolerance, or sooner. */
  readonly keptUntil: number;
}

/** How many tokens are kept, and for how long at most, unless the strategy is told otherwise. */
export interface VerifiedTokensLimits {
  readonly maxTokens: number;
  readonly maxAgeMs: number;
}

const DEFAULT_LIMITS: VerifiedTokensLimits = { maxTokens: 4096, maxAgeMs: 60_000 };

/**
 * The tokens a `jwt()` strategy verified lately, with their claims. A client sends the same token
 * with every request until it expires, and each verification goes through WebCrypto, the signature
 * checked on libuv's thread pool: measured here, three quarters of a plain route's throughput. A
 * token seen again is taken at its word only while it would still verify: never past its `exp` (with
 * the clock tolerance), and never longer than `maxAgeMs` after it was last verified, so a key
 * withdrawn from a JWKS stops opening it within that time. Only tokens that verified are kept, the
 * oldest making way past `maxTokens`; the claims are frozen, as every request of the token shares them.
 *
 * @example
 * const verified = new VerifiedTokens(5);
 * verified.claimsOf(token, Date.now()) ?? verified.keep(token, await verify(token), Date.now());
 */
export class VerifiedTokens {
  // By the token's last characters, its signature's (the whole token is compared on a hit): each
  // request brings its own copy of the token, whose hash V8 computes afresh, and a whole JWT is
  // several times longer.
  readonly #tokens = new Map<string, Verified>();
  readonly #toleranceMs: number;
  readonly #limits: VerifiedTokensLimits;

  constructor(clockToleranceS: number, limits: VerifiedTokensLimits = DEFAULT_LIMITS) {
    this.#toleranceMs = clockToleranceS * 1000;
    this.#limits = limits;
  }

  /** The claims of `token` if it verified lately and still would at `now`; else undefined. */
  claimsOf(token: string, now: number): AuthClaims | undefined {
    const signature = signatureOf(token);
    const verified = this.#tokens.get(signature);
    if (verified === undefined || verified.token !== token) return undefined;
    if (now < verified.keptUntil) return verified.claims;
    this.#tokens.delete(signature);
    return undefined;
  }

  /** Keeps `token`, which has just verified with `claims`, and gives the claims back, frozen. */
  keep(token: string, claims: AuthClaims, now: number): AuthClaims {
    const frozen = Object.freeze(claims);
    const expiry = typeof claims.exp === 'number' ? claims.exp * 1000 + this.#toleranceMs : Infinity;
    const keptUntil = Math.min(expiry, now + this.#limits.maxAgeMs);
    if (keptUntil <= now) return frozen;
    const signature = signatureOf(token);
    // Deleted first, so that a token kept again moves to the newest end of the order.
    this.#tokens.delete(signature);
    if (this.#tokens.size >= this.#limits.maxTokens) {
      const oldest = this.#tokens.keys().next();
      if (oldest.done !== true) this.#tokens.delete(oldest.value);
    }
    this.#tokens.set(signature, { token, claims: frozen, keptUntil });
    return frozen;
  }
}

// As many characters as an HS256 signature has: of any JWT, characters of its signature.
const KEY_LENGTH = 43;

function signatureOf(token: string): string {
  return token.length <= KEY_LENGTH ? token : token.slice(token.length - KEY_LENGTH);
}

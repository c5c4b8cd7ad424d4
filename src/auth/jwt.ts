import type { Request } from 'express';
import { createPublicKey, createPrivateKey, type KeyObject } from 'node:crypto';
import type * as Jose from 'jose';
import { AuthErrors } from '../errors/auth-errors';
import { bearerToken, type AuthClaims, type AuthStrategy, type Recognition } from './strategy';
import { VerifiedTokens } from './verified-tokens';

/** Options of {@link jwt}: one source of keys (`secret`, `publicKey` or `jwksUri`), and what a token must state. */
export interface JwtOptions {
  /** The shared secret of HS256/384/512 (at least 32 bytes, as RFC 7518 asks of HS256). */
  readonly secret?: string;
  /** The public key (PEM or a `KeyObject`) of RS*, PS*, ES* or EdDSA tokens. */
  readonly publicKey?: string | KeyObject;
  /** The private key (PEM or a `KeyObject`) `sign` uses with `publicKey`. */
  readonly privateKey?: string | KeyObject;
  /** Where the keys are published (a JWKS): fetched on first use, cached, fetched again for an unknown `kid` at most once per 30 s. */
  readonly jwksUri?: string;
  /** The algorithms accepted, and the first is the one `sign` uses. Default: HS256/384/512 with a secret, the asymmetric ones otherwise. */
  readonly algorithms?: readonly string[];
  /** The `iss` a token must state, when given. */
  readonly issuer?: string | readonly string[];
  /** The `aud` a token must include, when given. */
  readonly audience?: string | readonly string[];
  /** Seconds of clock difference allowed on `exp` and `nbf`. Default: 5. */
  readonly clockToleranceS?: number;
  /** Whether a token without `exp` is refused. Default: true. */
  readonly requireExpiry?: boolean;
}

/** Options of a token `sign` issues. */
export interface SignOptions {
  /** How long the token lasts: seconds, or jose's spans (`'15m'`, `'2h'`). */
  readonly expiresIn: number | string;
  /** The key id the header names, for a verifier reading a JWKS. */
  readonly kid?: string;
}

/** The `jwt()` strategy, which can also issue tokens. */
export interface JwtStrategy extends AuthStrategy {
  /**
   * A token of `claims` signed with the strategy's secret or private key, with `iat`, `exp`, and the
   * `iss` and `aud` it requires. @example const token = await auth.jwt.sign({ sub: user.id }, { expiresIn: '15m' })
   */
  sign(claims: Record<string, unknown> & { sub: string }, options: SignOptions): Promise<string>;
}

const HMAC = ['HS256', 'HS384', 'HS512'];
const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
// jose refuses with a code; what each means, as the log and the metric name it.
const REASONS: Readonly<Record<string, string>> = {
  ERR_JWT_EXPIRED: 'expired',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'bad_signature',
  ERR_JOSE_ALG_NOT_ALLOWED: 'algorithm',
  ERR_JOSE_NOT_SUPPORTED: 'algorithm',
  ERR_JWS_INVALID: 'malformed',
  ERR_JWT_INVALID: 'malformed',
  ERR_JWKS_NO_MATCHING_KEY: 'unknown_key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'unknown_key',
  ERR_JWKS_TIMEOUT: 'keys_unavailable',
  ERR_JWKS_INVALID: 'keys_unavailable',
};
const CLAIM_REASONS: Readonly<Record<string, string>> = {
  nbf: 'not_yet_valid',
  iss: 'wrong_issuer',
  aud: 'wrong_audience',
  exp: 'no_expiry',
};
const COOLDOWN_MS = 30_000;

/**
 * Authenticates `Authorization: Bearer <JWT>` with jose: the signature (with a secret, a public key
 * or the keys of a JWKS), `exp` and `nbf` with a clock tolerance, `iss` and `aud` when given; the
 * token's claims, frozen, go to the `user` factory. `alg: none` is never accepted. A token that
 * verified is taken at its word when it comes again, until its `exp` and for a minute at most
 * (see {@link VerifiedTokens}).
 *
 * @example
 * AuthModule.forRoot({ default: 'jwt', strategies: { jwt: jwt({ secret: env.JWT_SECRET }) }, user })
 * jwt({ jwksUri: 'https://login.example/.well-known/jwks.json', issuer: 'https://login.example/', audience: 'orders' })
 */
export function jwt(options: JwtOptions): JwtStrategy {
  const sources = [options.secret, options.publicKey, options.jwksUri].filter((given) => given !== undefined);
  if (sources.length !== 1)
    throw AuthErrors.invalidStrategy('jwt', 'give exactly one of secret, publicKey and jwksUri');
  if (
    options.secret !== undefined &&
    (typeof options.secret !== 'string' || Buffer.byteLength(options.secret) < 32)
  )
    throw AuthErrors.invalidStrategy('jwt', 'the secret must be a string of at least 32 bytes');
  const algorithms = [...(options.algorithms ?? (options.secret === undefined ? ASYMMETRIC : HMAC))];
  const tolerance = options.clockToleranceS ?? 5;
  const verifying: Jose.JWTVerifyOptions = {
    algorithms,
    clockTolerance: tolerance,
    ...(options.issuer === undefined ? {} : { issuer: options.issuer as string | string[] }),
    ...(options.audience === undefined ? {} : { audience: options.audience as string | string[] }),
    ...(options.requireExpiry === false ? {} : { requiredClaims: ['exp'] }),
  };
  const verified = new VerifiedTokens(tolerance);
  // jose is loaded by the first token, not at boot: an application without jwt() never loads it.
  let verifyKey: Jose.JWTVerifyGetKey | Uint8Array | KeyObject | undefined;
  const keyOf = (jose: typeof Jose): Jose.JWTVerifyGetKey | Uint8Array | KeyObject => {
    verifyKey ??=
      options.secret !== undefined
        ? new TextEncoder().encode(options.secret)
        : options.publicKey !== undefined
          ? asPublicKey(options.publicKey)
          : jose.createRemoteJWKSet(new URL(options.jwksUri as string), { cooldownDuration: COOLDOWN_MS });
    return verifyKey;
  };

  const verify = async (token: string): Promise<Recognition> => {
    const jose = loadJose();
    try {
      const key = keyOf(jose);
      const { payload } =
        typeof key === 'function'
          ? await jose.jwtVerify(token, key, verifying)
          : await jose.jwtVerify(token, key, verifying);
      if (typeof payload.sub !== 'string' || payload.sub === '') return { failure: 'no_subject' };
      return { claims: verified.keep(token, payload as AuthClaims, Date.now()) };
    } catch (error) {
      return { failure: reasonOf(error) };
    }
  };

  return {
    scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    challenge: 'Bearer',
    start: () => undefined,
    recognise(req: Request): Recognition | Promise<Recognition> {
      const token = bearerToken(req);
      if (token === undefined || !hasThreeSegments(token)) return undefined;
      const known = verified.claimsOf(token, Date.now());
      return known === undefined ? verify(token) : { claims: known };
    },
    async sign(claims, { expiresIn, kid }) {
      const jose = loadJose();
      const key =
        options.secret !== undefined
          ? new TextEncoder().encode(options.secret)
          : options.privateKey !== undefined
            ? asPrivateKey(options.privateKey)
            : undefined;
      if (key === undefined) throw AuthErrors.cannotSign();
      let token = new jose.SignJWT(claims)
        .setProtectedHeader({ alg: algorithms[0] as string, ...(kid === undefined ? {} : { kid }) })
        .setIssuedAt()
        .setExpirationTime(
          typeof expiresIn === 'number' ? Math.floor(Date.now() / 1000) + expiresIn : expiresIn,
        );
      const issuer = [options.issuer].flat()[0];
      const audience = options.audience;
      if (issuer !== undefined) token = token.setIssuer(issuer);
      if (audience !== undefined) token = token.setAudience(audience as string | string[]);
      return token.sign(key);
    },
  };
}

// Three segments: a JWT; anything else is another strategy's token.
function hasThreeSegments(token: string): boolean {
  const first = token.indexOf('.');
  const second = first === -1 ? -1 : token.indexOf('.', first + 1);
  return second !== -1 && token.indexOf('.', second + 1) === -1;
}

function reasonOf(error: unknown): string {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return CLAIM_REASONS[claim ?? ''] ?? 'claims';
  return (code !== undefined && REASONS[code]) || 'keys_unavailable';
}

function asPublicKey(key: string | KeyObject): KeyObject {
  return typeof key === 'string' ? createPublicKey(key) : key;
}

function asPrivateKey(key: string | KeyObject): KeyObject {
  return typeof key === 'string' ? createPrivateKey(key) : key;
}

// jose ships ES modules only, which Node 20.19+ requires synchronously.
function loadJose(): typeof Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  return require('jose') as typeof Jose;
}

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's parameters: `cost` (N, a power of two), `blockSize` (r) and `parallelization` (p).
 * The defaults are OWASP's password storage recommendation: N = 2^17, r = 8, p = 1 (128 MiB, about
 * a quarter of a second on a server core).
 */
export interface PasswordOptions {
  readonly cost?: number;
  readonly blockSize?: number;
  readonly parallelization?: number;
}

interface Parameters {
  readonly cost: number;
  readonly blockSize: number;
  readonly parallelization: number;
}

const DEFAULTS: Parameters = { cost: 2 ** 17, blockSize: 8, parallelization: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// `$scrypt$ln=17,r=8,p=1$<salt>$<key>`: the PHC string format, base64 without padding.
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * Hashes `password` with scrypt and a random salt; the parameters travel in the hash, so they can be
 * raised later ({@link needsRehash}) without breaking the hashes already stored.
 *
 * @example
 * user.passwordHash = await hashPassword(input.password);
 */
export async function hashPassword(password: string, options: PasswordOptions = {}): Promise<string> {
  const parameters = resolve(options);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, parameters, KEY_BYTES);
  return format(parameters, salt, key);
}

/**
 * Whether `password` matches `hash`. With no hash (an unknown user) it still derives a key, from a
 * hash made with `options`' parameters, and answers false: an unknown user and a wrong password take
 * the same time. A malformed hash is false.
 *
 * @example
 * const user = await users.findByEmail(email);
 * if (!(await verifyPassword(password, user?.passwordHash))) return ctx.error(401, 'wrong email or password');
 */
export async function verifyPassword(
  password: string,
  hash: string | null | undefined,
  options: PasswordOptions = {},
): Promise<boolean> {
  const parsed = hash ? parse(hash) : undefined;
  if (!parsed) {
    const stand = parse(await standInHash(resolve(options))) as ParsedHash;
    await matches(password, stand);
    return false;
  }
  return matches(password, parsed);
}

/**
 * Whether `hash` was made with parameters other than `options`' (OWASP's by default): hash the
 * password again on the user's next successful login.
 *
 * @example
 * if (needsRehash(user.passwordHash)) user.passwordHash = await hashPassword(password);
 */
export function needsRehash(hash: string, options: PasswordOptions = {}): boolean {
  const parsed = parse(hash);
  if (!parsed) return true;
  const wanted = resolve(options);
  const { parameters } = parsed;
  return (
    parameters.cost !== wanted.cost ||
    parameters.blockSize !== wanted.blockSize ||
    parameters.parallelization !== wanted.parallelization ||
    parsed.key.length !== KEY_BYTES
  );
}

interface ParsedHash {
  readonly parameters: Parameters;
  readonly salt: Buffer;
  readonly key: Buffer;
}

async function matches(password: string, { parameters, salt, key }: ParsedHash): Promise<boolean> {
  const derived = await derive(password, salt, parameters, key.length);
  return timingSafeEqual(derived, key);
}

// One stand-in hash per set of parameters, made once: an unknown user costs one derivation, as a
// known one does.
const standIns = new Map<string, Promise<string>>();

function standInHash(parameters: Parameters): Promise<string> {
  const id = `${parameters.cost},${parameters.blockSize},${parameters.parallelization}`;
  let hash = standIns.get(id);
  if (!hash) {
    hash = derive(
      randomBytes(KEY_BYTES).toString('base64'),
      randomBytes(SALT_BYTES),
      parameters,
      KEY_BYTES,
    ).then((key) => format(parameters, randomBytes(SALT_BYTES), key));
    standIns.set(id, hash);
  }
  return hash;
}

function derive(password: string, salt: Buffer, parameters: Parameters, length: number): Promise<Buffer> {
  const { cost: N, blockSize: r, parallelization: p } = parameters;
  // scrypt needs 128 * N * r * p bytes; Node's default ceiling (32 MiB) is below OWASP's parameters.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r * p };
  return new Promise((done, fail) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) =>
      error ? fail(error) : done(key),
    );
  });
}

function resolve(options: PasswordOptions): Parameters {
  const parameters = { ...DEFAULTS, ...options };
  const { cost, blockSize, parallelization } = parameters;
  if (!Number.isSafeInteger(cost) || cost < 2 ** 10 || cost > 2 ** 24 || (cost & (cost - 1)) !== 0)
    throw new RangeError(`password cost must be a power of two from 2^10 to 2^24, not ${String(cost)}`);
  for (const [name, value] of [
    ['blockSize', blockSize],
    ['parallelization', parallelization],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1 || value > 255)
      throw new RangeError(`password ${name} must be an integer from 1 to 255, not ${String(value)}`);
  }
  return parameters;
}

function format(parameters: Parameters, salt: Buffer, key: Buffer): string {
  const { cost, blockSize, parallelization } = parameters;
  const encode = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${Math.log2(cost)},r=${blockSize},p=${parallelization}$${encode(salt)}$${encode(key)}`;
}

function parse(hash: string): ParsedHash | undefined {
  const match = FORMAT.exec(hash);
  if (!match) return undefined;
  const [, ln, r, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  const parameters = { cost: 2 ** Number(ln), blockSize: Number(r), parallelization: Number(p) };
  if (Number(ln) < 10 || Number(ln) > 24 || parameters.blockSize < 1 || parameters.parallelization < 1)
    return undefined;
  return { parameters, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

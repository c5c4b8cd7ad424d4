import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, base64url } from 'jose';
import {
  AuthModule,
  Controller,
  CurrentUser,
  Get,
  Injectable,
  MetricsModule,
  Module,
  Public,
  currentRequest,
  jwt,
  type Application,
  type AuthUser,
  type Context,
  type JwtOptions,
} from 'keel';
import { bootApp } from '../factories/app';
import { captureLog, type LogCapture } from '../factories/log';
import { scrape } from '../factories/metrics';

declare module 'keel' {
  interface AuthUser {
    id: string;
    name: string;
  }
}

jest.setTimeout(30_000);

const SECRET = 'a-secret-of-at-least-thirty-two-bytes!!';
const ISSUER = 'https://login.example/';
const AUDIENCE = 'orders';

@Injectable()
class Users {
  readonly #users = new Map<string, AuthUser>([
    ['1', { id: '1', name: 'Ada' }],
    ['2', { id: '2', name: 'Grace' }],
  ]);
  find(id: string): AuthUser | undefined {
    return this.#users.get(id);
  }
}

@Controller('')
class MeController {
  @Get('me')
  me(@CurrentUser() user: AuthUser, ctx: Context) {
    return { user, fromContext: ctx.user?.name, fromScope: currentRequest()?.user?.name };
  }

  @Public()
  @Get('open')
  open(ctx: Context) {
    return { user: ctx.user ?? null };
  }
}

interface Served {
  readonly url: string;
  readonly log: LogCapture;
  readonly app: Application;
}

const apps: Application[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function serve(options: JwtOptions, imports: unknown[] = []): Promise<Served> {
  @Module({
    imports: [
      AuthModule.forRoot({
        default: 'jwt',
        strategies: { jwt: jwt(options) },
        user: { inject: [Users], useFactory: (users: Users) => (claims) => users.find(claims.sub) },
      }),
      ...(imports as never[]),
    ],
    controllers: [MeController],
    providers: [Users],
  })
  class AppModule {}
  const log = captureLog('debug');
  const app = await bootApp(AppModule, { logger: log.logger });
  apps.push(app);
  return { url: (await app.listen(0, '127.0.0.1')).url, log, app };
}

async function get(url: string, token?: string) {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.text() };
}

const now = () => Math.floor(Date.now() / 1000);

function signed(
  alg: string,
  key: Parameters<SignJWT['sign']>[0],
  claims: Record<string, unknown> = {},
): Promise<string> {
  const payload = { sub: '1', iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 60, ...claims };
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(key);
}

describe('jwt(): real tokens signed by jose', () => {
  const secretKey = new TextEncoder().encode(SECRET);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  test.each([
    ['HS256', { secret: SECRET }, () => signed('HS256', secretKey)],
    ['RS256', { publicKey: rsa.publicKey }, () => signed('RS256', rsa.privateKey)],
    [
      'ES256',
      { publicKey: ec.publicKey.export({ type: 'spki', format: 'pem' }) as string },
      () => signed('ES256', ec.privateKey),
    ],
  ] as const)('%s: a valid token reaches the handler with its user', async (_alg, options, token) => {
    const { url } = await serve({ ...options, issuer: ISSUER, audience: AUDIENCE });
    const answer = await get(`${url}/me`, await token());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      user: { id: '1', name: 'Ada' },
      fromContext: 'Ada',
      fromScope: 'Ada',
    });
  });

  test('jwt().sign issues a token the strategy accepts', async () => {
    const strategy = jwt({ secret: SECRET, issuer: ISSUER, audience: AUDIENCE });
    const { url } = await serve({ secret: SECRET, issuer: ISSUER, audience: AUDIENCE });
    const answer = await get(`${url}/me`, await strategy.sign({ sub: '2' }, { expiresIn: '5m' }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ user: { id: '2' } });
  });

  describe('each bad token is 401, its reason in the log and none in the body', () => {
    let served: Served;
    beforeAll(async () => {
      served = await serve({ secret: SECRET, issuer: ISSUER, audience: AUDIENCE }, [MetricsModule.forRoot()]);
    });
    const otherKey = new TextEncoder().encode('another-secret-of-thirty-two-bytes-long!');
    const unsigned = (): string =>
      `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(
        JSON.stringify({ sub: '1', iss: ISSUER, aud: AUDIENCE, exp: now() + 60 }),
      )}.`;

    test.each([
      ['expired', () => signed('HS256', secretKey, { exp: now() - 60 })],
      ['not_yet_valid', () => signed('HS256', secretKey, { nbf: now() + 60 })],
      ['wrong_issuer', () => signed('HS256', secretKey, { iss: 'https://elsewhere.example/' })],
      ['wrong_audience', () => signed('HS256', secretKey, { aud: 'billing' })],
      ['bad_signature', () => signed('HS256', otherKey)],
      ['algorithm', () => Promise.resolve(unsigned())],
      ['unknown_user', () => signed('HS256', secretKey, { sub: '404' })],
      ['missing', () => Promise.resolve(undefined)],
    ] as const)('%s', async (reason, token) => {
      const answer = await get(`${served.url}/me`, await token());
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe('Bearer');
      expect(JSON.parse(answer.body)).toEqual({ error: 'unauthenticated' });
      expect(answer.body).not.toContain(reason);
      const line = await served.log.next((entry) => entry.msg === `authentication failed: ${reason}`);
      expect(line).toMatchObject({ strategy: 'jwt', reason, route: 'MeController.me (GET /me)' });
    });

    test('every failure is counted in keel_auth_failures_total{strategy,reason}', async () => {
      const samples = await scrape(`${served.url}/metrics`);
      const failures = samples.filter((sample) => sample.name === 'keel_auth_failures_total');
      expect(failures.find((sample) => sample.labels.reason === 'expired')).toMatchObject({
        labels: { strategy: 'jwt', reason: 'expired' },
        value: 1,
      });
    });
  });

  describe('a token seen before is not verified again, but is held to what it says', () => {
    test('a token that opened a route is refused once it expires, with the same reason as one never seen', async () => {
      const served = await serve({ secret: SECRET, clockToleranceS: 0 });
      const exp = now() + 2;
      const token = await signed('HS256', secretKey, { exp });
      expect((await get(`${served.url}/me`, token)).status).toBe(200);
      expect((await get(`${served.url}/me`, token)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 100));
      const answer = await get(`${served.url}/me`, token);
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe('Bearer');
      const line = await served.log.next((entry) => entry.msg === 'authentication failed: expired');
      expect(line).toMatchObject({ strategy: 'jwt', reason: 'expired' });
    });

    test('a token whose signature ends as a valid one does is verified, and refused', async () => {
      const served = await serve({ secret: SECRET });
      const token = await signed('HS256', secretKey);
      expect((await get(`${served.url}/me`, token)).status).toBe(200);
      // The same signature on other claims: what a cache keyed by the signature alone would let in.
      const [, , signature] = token.split('.');
      const forged = `${base64url.encode(JSON.stringify({ alg: 'HS256' }))}.${base64url.encode(
        JSON.stringify({ sub: '2', exp: now() + 60 }),
      )}.${signature}`;
      expect((await get(`${served.url}/me`, forged)).status).toBe(401);
      expect(
        await served.log.next((entry) => entry.msg === 'authentication failed: bad_signature'),
      ).toBeDefined();
      expect((await get(`${served.url}/me`, token)).status).toBe(200);
    });

    test('the claims every request of a token shares are frozen', async () => {
      let claimsSeen: unknown;
      @Module({
        imports: [
          AuthModule.forRoot({
            default: 'jwt',
            strategies: { jwt: jwt({ secret: SECRET }) },
            user: {
              useFactory: () => (claims) => {
                claimsSeen = claims;
                return { id: claims.sub, name: 'Ada' };
              },
            },
          }),
        ],
        controllers: [MeController],
      })
      class FrozenClaimsModule {}
      const app = await bootApp(FrozenClaimsModule, { logger: false });
      apps.push(app);
      const { url } = await app.listen(0, '127.0.0.1');
      const token = await signed('HS256', secretKey);
      for (let request = 0; request < 2; request += 1) {
        expect((await get(`${url}/me`, token)).status).toBe(200);
        expect(Object.isFrozen(claimsSeen)).toBe(true);
        expect(claimsSeen).toMatchObject({ sub: '1' });
      }
    });
  });

  describe('the Authorization header', () => {
    let url: string;
    beforeAll(async () => {
      ({ url } = await serve({ secret: SECRET }));
    });

    test.each([
      ['bearer in lower case', (token: string) => `bearer ${token}`, 200],
      ['spaces around the token', (token: string) => `Bearer   ${token}  `, 200],
      ['no token', () => 'Bearer', 401],
      ['only spaces after the scheme', () => 'Bearer    ', 401],
      ['two words', (token: string) => `Bearer ${token} more`, 401],
      ['no space after the scheme', (token: string) => `Bearer${token}`, 401],
      ['another scheme', (token: string) => `Basic ${token}`, 401],
    ] as const)('with %s: %s', async (_case, header, status) => {
      const token = await signed('HS256', secretKey);
      const res = await fetch(`${url}/me`, { headers: { authorization: header(token) } });
      expect(res.status).toBe(status);
    });
  });

  test('@Public() routes run no strategy', async () => {
    const { url } = await serve({ secret: SECRET });
    const answer = await get(`${url}/open`, 'not.a.token');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ user: null });
  });
});

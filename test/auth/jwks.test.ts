import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { AuthModule, Controller, Get, Module, jwt, type Application } from 'keel';
import { bootApp } from '../factories/app';
import { captureLog } from '../factories/log';

jest.setTimeout(60_000);

// Only Date is faked, to step past jose's 30 s cooldown; timers, sockets and fetch run for real.
const REAL = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate'];
const TIMERS = ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'];

interface Key {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly jwk: Record<string, unknown>;
}

function newKey(kid: string): Key {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
}

function tokenOf(key: Key, sub = 'u1'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, iat: now, exp: now + 300 })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid })
    .sign(key.privateKey);
}

@Controller('')
class MeController {
  @Get('me')
  me() {
    return { ok: true };
  }
}

describe('jwt({ jwksUri }): keys from a JWKS served over HTTP', () => {
  let published: Key[] = [];
  let hits = 0;
  let jwksServer: http.Server;
  let app: Application;
  let url: string;
  const log = captureLog('debug');

  beforeAll(async () => {
    jest.useFakeTimers({ doNotFake: [...REAL, ...TIMERS] as never[] });
    jwksServer = http.createServer((_req, res) => {
      hits += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published.map((key) => key.jwk) }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const { port } = jwksServer.address() as AddressInfo;
    @Module({
      imports: [
        AuthModule.forRoot({
          default: 'jwt',
          strategies: { jwt: jwt({ jwksUri: `http://127.0.0.1:${port}/.well-known/jwks.json` }) },
          user: { useFactory: () => (claims) => ({ id: claims.sub, name: 'remote' }) },
        }),
      ],
      controllers: [MeController],
    })
    class AppModule {}
    app = await bootApp(AppModule, { logger: log.logger });
    url = (await app.listen(0, '127.0.0.1')).url;
  });

  afterAll(async () => {
    jest.useRealTimers();
    await app.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  const status = async (token: string) =>
    (await fetch(`${url}/me`, { headers: { authorization: `Bearer ${token}` } })).status;

  async function statuses(tokens: readonly string[]): Promise<number[]> {
    const answers: number[] = [];
    // Ten at a time: concurrent enough to race jose's refetch, gentle enough for two cores.
    for (let i = 0; i < tokens.length; i += 10)
      answers.push(...(await Promise.all(tokens.slice(i, i + 10).map(status))));
    return answers;
  }

  test('fetched on first use and cached; 1,000 tokens naming an unknown kid refetch at most once per 30 s', async () => {
    const first = newKey('k1');
    published = [first];
    expect(await status(await tokenOf(first))).toBe(200);
    expect(hits).toBe(1);
    expect(await status(await tokenOf(first))).toBe(200);
    expect(hits).toBe(1);

    const stranger = newKey('unknown');
    const bad = await tokenOf(stranger);
    const answers = await statuses(Array.from({ length: 1000 }, () => bad));
    expect(new Set(answers)).toEqual(new Set([401]));
    // Within 30 s of the last fetch: not one more.
    expect(hits).toBe(1);
    expect(log.entries().filter((entry) => entry.msg === 'authentication failed: unknown_key')).toHaveLength(
      1000,
    );

    jest.setSystemTime(Date.now() + 31_000);
    expect(new Set(await statuses(Array.from({ length: 500 }, () => bad)))).toEqual(new Set([401]));
    // Past the cooldown, the first unknown kid refetches once, and the next 499 do not.
    expect(hits).toBe(2);
  });

  test('a key rotated onto the JWKS is picked up by the first token that names its kid', async () => {
    const rotated = newKey('k2');
    published = [...published, rotated];
    jest.setSystemTime(Date.now() + 31_000);
    const before = hits;
    expect(await status(await tokenOf(rotated))).toBe(200);
    expect(hits).toBe(before + 1);
    expect(await status(await tokenOf(rotated))).toBe(200);
    expect(hits).toBe(before + 1);
  });
});

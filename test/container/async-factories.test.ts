import { Inject, Injectable, InjectionToken } from 'keel';
import { setTimeout as sleep } from 'node:timers/promises';
import { boot, defineModule } from '../factories/define-module';

interface Connection {
  readonly url: string;
}

const DATABASE_URL = new InjectionToken<string>('DATABASE_URL');
const CONNECTION = new InjectionToken<Connection>('CONNECTION');

@Injectable()
class Orders {
  constructor(@Inject(CONNECTION) readonly connection: Connection) {}
}

describe('async factories', () => {
  test("an async factory's awaited value is injected into a class", async () => {
    const app = await boot(
      defineModule('AppModule', {
        providers: [
          Orders,
          {
            provide: CONNECTION,
            useFactory: async (url: string) => {
              await sleep(5);
              return { url };
            },
            inject: [DATABASE_URL],
          },
          { provide: DATABASE_URL, useFactory: async () => 'postgres://db/orders' },
        ],
      }),
    );

    expect(app.get(Orders).connection).toEqual({ url: 'postgres://db/orders' });
    expect(app.get(CONNECTION)).toBe(app.get(Orders).connection);
  });

  test('a factory that rejects fails boot with E_PROVIDER_FAILED naming the provider, the module and the reason', async () => {
    const reason = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const DatabaseModule = defineModule('DatabaseModule', {
      providers: [{ provide: CONNECTION, useFactory: async () => Promise.reject(reason) }],
    });

    await expect(boot(defineModule('AppModule', { imports: [DatabaseModule] }))).rejects.toMatchObject({
      code: 'E_PROVIDER_FAILED',
      message:
        'E_PROVIDER_FAILED: creating InjectionToken(CONNECTION) (factory) in module DatabaseModule threw.\n' +
        'Reason: connect ECONNREFUSED 127.0.0.1:5432',
      cause: reason,
    });
  });

  test('a factory that throws synchronously fails boot with E_PROVIDER_FAILED too', async () => {
    const reason = new Error('DATABASE_URL is not set');
    const root = defineModule('AppModule', {
      providers: [
        {
          provide: DATABASE_URL,
          useFactory: () => {
            throw reason;
          },
        },
      ],
    });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_PROVIDER_FAILED',
      message:
        'E_PROVIDER_FAILED: creating InjectionToken(DATABASE_URL) (factory) in module AppModule threw.\n' +
        'Reason: DATABASE_URL is not set',
      cause: reason,
    });
  });

  test('a constructor that throws fails boot with E_PROVIDER_FAILED naming the class', async () => {
    @Injectable()
    class Migrations {
      constructor() {
        throw new Error('pending migrations');
      }
    }

    await expect(boot(defineModule('AppModule', { providers: [Migrations] }))).rejects.toMatchObject({
      code: 'E_PROVIDER_FAILED',
      message:
        'E_PROVIDER_FAILED: creating Migrations in module AppModule threw.\nReason: pending migrations',
    });
  });
});

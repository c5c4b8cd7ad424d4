import {
  ApiResource,
  Controller,
  DatabaseModule,
  Get,
  Module,
  OpenApiModule,
  Post,
  RateLimit,
  RateLimitModule,
  type Class,
  type JsonSchema,
  type ModuleImport,
  type OpenApiDocument,
  type RateLimitOptions,
} from 'keel';
import { bootApp } from '../factories/app';
import { validateOpenApi, VALIDATOR_TIMEOUT_MS } from '../factories/openapi';

function controllerLimitedBy(options: RateLimitOptions): Class {
  @Controller('tickets')
  class TicketController {
    @RateLimit(options)
    @Post()
    store() {
      return { stored: true };
    }
  }
  return TicketController;
}

function appWith(imports: ModuleImport[], controllers: Class[]): Class {
  @Module({ imports, controllers })
  class AppModule {}
  return AppModule;
}

describe('boot errors', () => {
  test('@RateLimit without RateLimitModule names the route and the module to import', async () => {
    const root = appWith([], [controllerLimitedBy({ limit: 5, windowS: 60 })]);
    await expect(bootApp(root)).rejects.toThrow(
      /E_RATE_LIMIT_WITHOUT_MODULE: TicketController\.store \(POST \/tickets\) has @RateLimit.*\nFix: add RateLimitModule\.forRoot\(\)/,
    );
  });

  test.each([
    [{ limit: 0, windowS: 60 }, 'limit 0'],
    [{ limit: 5, windowS: 1.5 }, 'windowS 1.5'],
    [{ limit: -1, windowS: 60 }, 'limit -1'],
    [{ limit: '5' as unknown as number, windowS: 60 }, 'limit "5"'],
    [{ limit: 5, windowS: Number.NaN }, 'windowS NaN'],
  ])('@RateLimit(%j) is refused at boot, naming the route and the option', async (options, shown) => {
    const root = appWith([RateLimitModule.forRoot()], [controllerLimitedBy(options)]);
    await expect(bootApp(root)).rejects.toThrow(
      `E_INVALID_RATE_LIMIT: the @RateLimit of TicketController.store (POST /tickets) has ${shown}: expected a positive integer`,
    );
  });

  test('a named limit the module does not give is refused at boot, naming the ones it gives', async () => {
    @Controller('named')
    class NamedController {
      @RateLimit('api-writes')
      @Post()
      store() {
        return {};
      }
    }
    const module = RateLimitModule.forRoot({ limits: { login: { limit: 5, windowS: 60 } } });
    await expect(bootApp(appWith([module], [NamedController]))).rejects.toThrow(
      `E_UNKNOWN_RATE_LIMIT: NamedController.store (POST /named) has @RateLimit('api-writes'), but RateLimitModule.forRoot's limits have no 'api-writes' (it names 'login')`,
    );
  });

  test('a named limit that is not a limit is refused by forRoot, naming it', () => {
    expect(() => RateLimitModule.forRoot({ limits: { login: { limit: 5, windowS: 0 } } })).toThrow(
      "E_INVALID_RATE_LIMIT: RateLimitModule.forRoot's limits.login has windowS 0: expected a positive integer",
    );
  });

  test('a key that is neither ip nor a function is refused at boot', async () => {
    const options = { limit: 5, windowS: 60, key: 'header' as 'ip' };
    const root = appWith([RateLimitModule.forRoot()], [controllerLimitedBy(options)]);
    await expect(bootApp(root)).rejects.toThrow(/has key "header": expected 'ip' or a function/);
  });

  test("store 'postgres' without DatabaseModule says to import it", async () => {
    const root = appWith(
      [RateLimitModule.forRoot({ store: 'postgres' })],
      [controllerLimitedBy({ limit: 5, windowS: 60 })],
    );
    await expect(bootApp(root)).rejects.toThrow(
      /E_RATE_LIMIT_NEEDS_DATABASE: .*but no DataSource is provided\.\nFix: import DatabaseModule\.forRoot/,
    );
  });

  test("store 'postgres' on a database that is not PostgreSQL names its type", async () => {
    const database = DatabaseModule.forRoot({ type: 'mysql', url: 'mysql://root@127.0.0.1:1/none' });
    const root = appWith(
      [database, RateLimitModule.forRoot({ store: 'postgres' })],
      [controllerLimitedBy({ limit: 5, windowS: 60 })],
    );
    const booting = bootApp(root);
    await expect(booting).rejects.toThrow(/the DataSource is of type 'mysql'/);
  });

  test.each([
    [{ store: 'sqlite' }, /E_INVALID_RATE_LIMIT_STORE: .*store is "sqlite": expected 'memory', 'postgres'/],
    [{ store: { redis: 'redis://x' } }, /E_INVALID_RATE_LIMIT_STORE/],
    [{ failClosed: 'yes' }, /E_INVALID_OPTION: the option rate limit failClosed is "yes"/],
    [{ timeoutMs: -1 }, /E_INVALID_OPTION: the option rate limit timeoutMs is -1/],
    [{ keyPrefix: '' }, /E_INVALID_OPTION: the option rate limit keyPrefix is ""/],
  ])('RateLimitModule.forRoot(%j) is refused, naming the option', (options, message) => {
    expect(() => RateLimitModule.forRoot(options as never)).toThrow(message);
  });

  test('a Redis store whose function gives no client is refused at boot', async () => {
    const root = appWith(
      [RateLimitModule.forRoot({ store: { redis: () => undefined as unknown as object } })],
      [controllerLimitedBy({ limit: 5, windowS: 60 })],
    );
    await expect(bootApp(root)).rejects.toThrow(/store \{ redis \} gave undefined, not a Redis client/);
  });
});

@RateLimit({ limit: 10, windowS: 60 })
@ApiResource('api/notes', { only: ['store', 'destroy'] })
class NoteController {
  store() {
    return { stored: true };
  }

  destroy() {
    return undefined;
  }
}

@Controller('open')
class OpenController {
  @Get() index() {
    return [];
  }
}

test(
  'the OpenAPI document gives limited operations a 429 with Retry-After and the RateLimit headers, and no other',
  async () => {
    const root = appWith(
      [RateLimitModule.forRoot(), OpenApiModule.forRoot({ title: 'Notes', version: '1.0.0' })],
      [NoteController, OpenController],
    );
    const app = await bootApp(root);
    try {
      const { url } = await app.listen(0, '127.0.0.1');
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiDocument;
      for (const operation of [
        document.paths['/api/notes']?.post,
        document.paths['/api/notes/{id}']?.delete,
      ]) {
        const { responses } = operation as { responses: Record<string, JsonSchema> };
        const tooMany = responses['429'] as {
          content: Record<string, { schema: unknown }>;
          headers: Record<string, unknown>;
        };
        expect(tooMany.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(Object.keys(tooMany.headers)).toEqual(['Retry-After', 'RateLimit-Policy', 'RateLimit']);
      }
      const open = document.paths['/open']?.get as { responses: Record<string, JsonSchema> };
      expect(Object.keys(open.responses)).toEqual(['200']);
      expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
    } finally {
      await app.close();
    }
  },
  VALIDATOR_TIMEOUT_MS,
);

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IsEmail } from 'class-validator';
import { DataSource } from 'typeorm';
import {
  AuthModule,
  Body,
  Controller,
  DatabaseModule,
  Get,
  Module,
  OpenApiModule,
  Post,
  Public,
  RateLimit,
  RateLimitModule,
  jwt,
  type Application,
  type DescribedError,
  type ErrorsOption,
} from 'keel';
import { bootApp } from '../factories/app';
import type { ChildApp } from '../factories/child-app';
import { PRISM_START_TIMEOUT_MS, startPrism, violationsOf } from '../factories/prism';
import { closedPort } from '../factories/test-databases';

// The error answers of an application with its own error shape, through Stoplight Prism's
// validating proxy: the document states each error's status, media type and schema, and Prism
// finds no answer it does not describe.
jest.setTimeout(PRISM_START_TIMEOUT_MS + 60_000);

class Signup {
  @IsEmail() email!: string;
}

@Public()
@Controller('things')
class ThingController {
  constructor(private readonly database: DataSource) {}

  @Post()
  store(@Body() input: Signup) {
    return input;
  }

  @RateLimit({ limit: 1, windowS: 60 })
  @Get('limited')
  limited() {
    return {};
  }

  @Get('stored')
  stored() {
    return this.database.query('SELECT 1');
  }
}

@Controller('me')
class MeController {
  @Get()
  me() {
    return {};
  }
}

const realWorld = (error: DescribedError) => ({ errors: error.fields ?? { body: [error.message] } });
const REAL_WORLD = {
  format: realWorld,
  schema: {
    type: 'object',
    properties: {
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['errors'],
    additionalProperties: false,
  },
};

const json = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

/**
 * Error answers the document states for their operation: each must pass Prism as described. Not
 * malformed JSON: Prism's proxy never forwards a JSON body it cannot parse (it waits, and the
 * request times out); test/http/error-shapes.test.ts checks that answer against the document's schema.
 */
const CONDITIONS: readonly { name: string; path: string; init?: RequestInit; status: number }[] = [
  { name: 'a body over the limit', path: '/things', init: json(`"${'x'.repeat(2_000_000)}"`), status: 413 },
  {
    name: 'an unsupported content type',
    path: '/things',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
    status: 415,
  },
  { name: 'a failed validation', path: '/things', init: json('{"email":"not an email"}'), status: 422 },
  { name: 'no credentials', path: '/me', status: 401 },
  { name: 'a spent rate limit', path: '/things/limited', status: 429 },
  { name: 'the database away', path: '/things/stored', status: 503 },
];

describe.each([
  { shape: "'problem'", option: 'problem' as ErrorsOption, type: /^application\/problem\+json/ },
  { shape: 'a function (RealWorld’s shape)', option: REAL_WORLD as ErrorsOption, type: /^application\/json/ },
])('with $shape', ({ option, type }) => {
  let app: Application | undefined;
  let prism: ChildApp | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    @Module({
      imports: [
        DatabaseModule.forRoot({
          type: 'postgres',
          url: `postgres://postgres@127.0.0.1:${await closedPort()}/test`,
        }),
        AuthModule.forRoot({
          default: 'jwt',
          strategies: { jwt: jwt({ secret: 'a-secret-of-at-least-thirty-two-bytes!!' }) },
          user: { useFactory: () => (claims) => ({ id: String(claims.sub), name: 'n' }) },
        }),
        RateLimitModule.forRoot(),
        OpenApiModule.forRoot({ title: 'Things', version: '1.0.0' }),
      ],
      controllers: [ThingController, MeController],
    })
    class AppModule {}
    app = await bootApp(AppModule, { errors: option });
    const { url } = await app.listen(0, '127.0.0.1');
    dir = await mkdtemp(path.join(os.tmpdir(), 'keel-prism-errors-'));
    const documentFile = path.join(dir, 'openapi.json');
    await writeFile(documentFile, await (await fetch(`${url}/openapi.json`)).text());
    prism = await startPrism(documentFile, url, { errors: false });
  }, PRISM_START_TIMEOUT_MS + 20_000);

  afterAll(async () => {
    prism?.child.kill('SIGTERM');
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test.each(CONDITIONS)(
    '$name: $status, in the shape the document states',
    async ({ path: target, init, status }) => {
      // The rate limit's first request is allowed: the second is the one refused.
      if (status === 429) await fetch(`${(prism as ChildApp).url}${target}`);
      const res = await fetch(`${(prism as ChildApp).url}${target}`, init);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(violationsOf(res, 'response')).toEqual([]);
      // And the check can fail: the body is the shape's, not keel's default.
      expect(await res.json()).not.toHaveProperty('error');
    },
  );
});

import { IsInt, IsOptional, IsString, ValidateBy } from 'class-validator';
import {
  APP_GUARD,
  ApiResource,
  Authenticates,
  Body,
  Controller,
  Get,
  HealthModule,
  HttpError,
  Module,
  OpenApiModule,
  Param,
  ParseBoolPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  PartialType,
  Patch,
  Query,
  UseGuards,
  documentedRule,
  type Application,
  type CanActivate,
  type Class,
  type Context,
  type JsonSchema,
  type OpenApiDocument,
} from 'keel';
import request from 'supertest';
import { bootApp, listenerOf } from '../factories/app';
import { schemaValidator, validateOpenApi, VALIDATOR_TIMEOUT_MS } from '../factories/openapi';

// Rules of the application's own, as the sample makes them: counted in code points, with a schema.
const Characters = (min: number, max: number) =>
  documentedRule(
    { minLength: min, maxLength: max },
    ValidateBy({
      name: 'characters',
      validator: { validate: (value) => typeof value === 'string' && [...value].length <= max },
    }),
  );
const InRange = (min: number, max: number) =>
  documentedRule(
    { minimum: min, maximum: max },
    ValidateBy({
      name: 'inRange',
      validator: { validate: (value) => typeof value === 'number' && value >= min && value <= max },
    }),
  );
// A rule without a schema: it validates, and the document says nothing of it.
const Undocumented = () =>
  ValidateBy({ name: 'undocumented', validator: { validate: (value) => value !== 'forbidden' } });

class TicketInput {
  @Characters(1, 80) @IsString() title!: string;
  @InRange(1, 1000) @IsInt() seats!: number;
  @Undocumented() @IsOptional() @IsString() note?: string;
}

class TicketChanges extends PartialType(TicketInput) {}

class TicketFilter {
  @IsOptional() @InRange(1, 50) @IsInt() limit?: number;
  @IsString() venue!: string;
}

@Authenticates('bearerToken', { type: 'http', scheme: 'bearer' })
class BearerGuard implements CanActivate {
  canActivate(ctx: Context): boolean {
    if (ctx.req.get('authorization') !== 'Bearer right') throw new HttpError(401, 'missing or wrong token');
    return true;
  }
}

@Authenticates('apiKey', { type: 'apiKey', in: 'header', name: 'X-Api-Key' })
class ApiKeyGuard implements CanActivate {
  canActivate(ctx: Context): boolean {
    if (ctx.req.get('x-api-key') !== 'key') throw new HttpError(401, 'missing or wrong API key');
    return true;
  }
}

// States no scheme: what it can answer is the framework's 403 for `false`.
class AdminOnly implements CanActivate {
  canActivate(ctx: Context): boolean {
    return ctx.req.get('x-role') === 'admin';
  }
}

const echo = (ctx: Context) => ({ id: ctx.param('id') });

@ApiResource('api/tickets', { input: TicketInput, patchInput: TicketChanges })
class TicketApiController {
  index(@Query() filter: TicketFilter) {
    return filter;
  }
  @UseGuards(BearerGuard)
  async store(ctx: Context) {
    const input = await ctx.bind(TicketInput);
    if (!input.ok) throw input.error;
    ctx.json(201, input.value);
  }
  show(@Param('id', ParseIntPipe) id: number) {
    return { id };
  }
  @UseGuards(BearerGuard)
  update(@Param('id', ParseIntPipe) id: number) {
    return { id };
  }
  @UseGuards(BearerGuard, AdminOnly)
  destroy = echo;
}

@UseGuards(ApiKeyGuard)
@Controller('venues')
class VenueController {
  @Get(':id')
  show(
    @Param('id', ParseUUIDPipe) id: string,
    @Query('page', '1', ParseIntPipe) page: number,
    @Query('open', ParseBoolPipe) open: boolean,
  ) {
    return { id, page, open };
  }

  @Patch(':id')
  amend(@Param('id') id: string, @Body() changes: TicketChanges) {
    return { id, changes };
  }
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Tickets', version: '1.0.0' })],
  controllers: [TicketApiController, VenueController],
})
class AppModule {}

let app: Application;
let document: OpenApiDocument;

beforeAll(async () => {
  app = await bootApp(AppModule);
  document = (await request(listenerOf(app)).get('/openapi.json')).body as OpenApiDocument;
});

afterAll(() => app.close());

type Operation = Record<string, unknown> & {
  parameters?: Record<string, unknown>[];
  requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

function operation(path: string, method: string): Operation {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found as Operation;
}

const statuses = (path: string, method: string) => Object.keys(operation(path, method).responses);
const ERROR = { $ref: '#/components/schemas/Error' };

test(
  'the document with schemes, partial bodies and piped parameters passes the standard validator',
  async () => {
    expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
  },
  VALIDATOR_TIMEOUT_MS,
);

describe('a rule made by the application', () => {
  test('states its schema where it is made: the document shows minLength/maxLength and minimum/maximum', () => {
    expect(document.components.schemas.TicketInput).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 80 },
        seats: { type: 'integer', minimum: 1, maximum: 1000 },
        note: { type: 'string' },
      },
      required: ['title', 'seats'],
    });
  });

  test('validates as it did: a documented rule still refuses what it refuses', async () => {
    const res = await request(listenerOf(app))
      .post('/api/tickets')
      .set('authorization', 'Bearer right')
      .send({ title: 'x'.repeat(81), seats: 1001, note: 'forbidden' });
    expect(res.status).toBe(422);
    expect(Object.keys((res.body as { fields: object }).fields).sort()).toEqual(['note', 'seats', 'title']);
  });

  test('refuses to be made without a schema object or without a rule, saying what it needs', () => {
    expect(() => documentedRule('maxLength 80' as never, IsString())).toThrow(
      'documentedRule(schema, rule) needs a JSON Schema object',
    );
    expect(() => documentedRule({ maxLength: 80 }, undefined as never)).toThrow('needs the rule decorator');
  });
});

describe('a guard that states how it authenticates', () => {
  test('its scheme is in components.securitySchemes, once, under the name it gives', () => {
    expect(document.components.securitySchemes).toEqual({
      bearerToken: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
  });

  test('the operations it protects require it and document 401 with the error body; the others do not', () => {
    for (const [path, method] of [
      ['/api/tickets', 'post'],
      ['/api/tickets/{id}', 'put'],
      ['/api/tickets/{id}', 'patch'],
    ]) {
      expect(operation(path, method).security).toEqual([{ bearerToken: [] }]);
      expect(operation(path, method).responses[401]).toEqual({
        description: 'Missing or wrong credentials',
        content: { 'application/json': { schema: ERROR } },
      });
    }
    for (const [path, method] of [
      ['/api/tickets', 'get'],
      ['/api/tickets/{id}', 'get'],
    ]) {
      expect(operation(path, method)).not.toHaveProperty('security');
      expect(statuses(path, method)).not.toContain('401');
      expect(statuses(path, method)).not.toContain('403');
    }
  });

  test('a class-level guard protects every route of the class', () => {
    expect(operation('/venues/{id}', 'get').security).toEqual([{ apiKey: [] }]);
    expect(operation('/venues/{id}', 'patch').security).toEqual([{ apiKey: [] }]);
  });

  test('any guard may refuse with 403; two guards that each authenticate are both required', () => {
    expect(operation('/api/tickets/{id}', 'delete').security).toEqual([{ bearerToken: [] }]);
    expect(statuses('/api/tickets/{id}', 'delete')).toEqual(['204', '401', '403', '404']);
    expect(operation('/api/tickets/{id}', 'delete').responses[403]).toEqual({
      description: 'Forbidden',
      content: { 'application/json': { schema: ERROR } },
    });
  });

  test('the answers it documents are the ones it gives', async () => {
    const server = listenerOf(app);
    expect((await request(server).delete('/api/tickets/1')).status).toBe(401);
    expect((await request(server).delete('/api/tickets/1').set('authorization', 'Bearer right')).status).toBe(
      403,
    );
    expect((await request(server).get('/venues/x')).status).toBe(401);
  });

  test('refuses a name OpenAPI cannot hold, or a scheme of no known type', () => {
    expect(() => Authenticates('bearer token', { type: 'http', scheme: 'bearer' })).toThrow(
      'is not a valid OpenAPI component name',
    );
    expect(() => Authenticates('bearer', { type: 'basic' } as never)).toThrow(
      'the scheme needs a type of http, apiKey, oauth2 or openIdConnect',
    );
  });
});

describe('an APP_GUARD that authenticates', () => {
  @Authenticates('session', { type: 'apiKey', in: 'cookie', name: 'session' })
  class SessionGuard implements CanActivate {
    canActivate(): boolean {
      return true;
    }
  }

  @Authenticates('session', { type: 'apiKey', in: 'cookie', name: 'sid' })
  class OtherSessionGuard implements CanActivate {
    canActivate(): boolean {
      return true;
    }
  }

  @Controller('things')
  class ThingController {
    @Get() index() {
      return [];
    }
    @UseGuards(OtherSessionGuard)
    @Get(':id')
    show() {
      return {};
    }
  }

  // An application of `controller` whose every route SessionGuard guards.
  function guardedBy(controller: Class): Class {
    @Module({
      imports: [OpenApiModule.forRoot({ title: 'Things', version: '1' })],
      controllers: [controller],
      providers: [{ provide: APP_GUARD, useClass: SessionGuard }],
    })
    class GuardedModule {}
    return GuardedModule;
  }

  test('every operation requires its scheme and documents 401', async () => {
    const guarded = await bootApp(guardedBy(VenueController));
    const doc = (await request(listenerOf(guarded)).get('/openapi.json')).body as OpenApiDocument;
    await guarded.close();
    expect(doc.paths['/venues/{id}']?.get).toMatchObject({ security: [{ session: [], apiKey: [] }] });
    expect(doc.components.securitySchemes).toHaveProperty('session');
  });

  test('two different schemes under one name stop the boot, naming both routes and the fix', async () => {
    const boot = bootApp(guardedBy(ThingController));
    await expect(boot).rejects.toMatchObject({ code: 'E_INVALID_OPENAPI' });
    await expect(boot).rejects.toThrow(
      "two guards state different security schemes under the name 'session' (on ThingController.index and on ThingController.show)",
    );
    await expect(boot).rejects.toThrow('Fix: give each scheme a name of its own');
  });
});

describe('parameters and bodies as the route reads them', () => {
  test("a @Query() class on an API resource's index is documented as query parameters, and its 422", () => {
    expect(operation('/api/tickets', 'get').parameters).toEqual([
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 50 } },
      { name: 'venue', in: 'query', required: true, schema: { type: 'string' } },
    ]);
    expect(statuses('/api/tickets', 'get')).toEqual(['200', '422']);
  });

  test('a parameter behind ParseIntPipe is an integer, ParseBoolPipe a boolean, ParseUUIDPipe a uuid; each may be 400', () => {
    expect(operation('/api/tickets/{id}', 'get').parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    expect(statuses('/api/tickets/{id}', 'get')).toEqual(['200', '400', '404']);
    expect(operation('/venues/{id}', 'get').parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', default: 1 } },
      { name: 'open', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);
    expect(statuses('/venues/{id}', 'get')).toContain('400');
  });

  test('PUT and PATCH have distinct bodies: PATCH requires nothing, and may send no body at all', () => {
    const put = operation('/api/tickets/{id}', 'put').requestBody;
    const patch = operation('/api/tickets/{id}', 'patch').requestBody;
    expect(put).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TicketInput' } } },
    });
    expect(patch).toMatchObject({
      required: false,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TicketChanges' } } },
    });
    expect(document.components.schemas.TicketChanges).not.toHaveProperty('required');
    expect(document.components.schemas.TicketChanges).toMatchObject({
      properties: document.components.schemas.TicketInput?.properties,
    });
    expect(operation('/venues/{id}', 'patch').requestBody).toMatchObject({ required: false });
  });
});

describe('answers the application gives on every route', () => {
  test('the health routes document their bodies, readiness its 503; with load shedding every other route documents 503 and Retry-After', async () => {
    @Module({
      imports: [
        OpenApiModule.forRoot({ title: 'Tickets', version: '1' }),
        HealthModule.forRoot({ dataSource: () => undefined }),
      ],
      controllers: [TicketApiController],
    })
    class ShedModule {}
    const shed = await bootApp(ShedModule, { loadShedding: { maxEventLoopDelayMs: 60_000 } });
    const doc = (await request(listenerOf(shed)).get('/openapi.json')).body as OpenApiDocument;
    const ready = await request(listenerOf(shed)).get('/health/ready');
    await shed.close();
    const responses = (path: string, method = 'get') =>
      (doc.paths[path]?.[method] as Operation).responses as Record<string, Record<string, unknown>>;

    expect(Object.keys(responses('/health'))).toEqual(['200']);
    expect(Object.keys(responses('/health/ready'))).toEqual(['200', '503']);
    const readySchema = schemaValidator(doc)(
      (responses('/health/ready')[503]?.content as Record<string, { schema: JsonSchema }>)['application/json']
        .schema,
    );
    expect(ready.status).toBe(503);
    expect(readySchema(ready.body)).toBe(true);
    expect(readySchema({ status: 'ready', db: 'connected' })).toBe(false);

    for (const [path, method] of [
      ['/api/tickets', 'get'],
      ['/api/tickets', 'post'],
      ['/api/tickets/{id}', 'delete'],
    ]) {
      expect(responses(path, method)[503]).toEqual({
        description: expect.stringContaining('overloaded') as string,
        headers: { 'Retry-After': { schema: { type: 'string' } } },
        content: { 'application/json': { schema: ERROR } },
      });
    }
  });

  test('without a database or load shedding, no route documents 503', () => {
    expect(
      Object.values(document.paths).flatMap((methods) =>
        Object.values(methods).filter((op) => '503' in (op as Operation).responses),
      ),
    ).toEqual([]);
  });
});

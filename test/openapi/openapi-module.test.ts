import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import {
  ApiResource,
  Body,
  Controller,
  Get,
  Module,
  OpenApiModule,
  Param,
  Post,
  Query,
  Resource,
  type Application,
  type Context,
  type OpenApiDocument,
} from 'keel';
import request from 'supertest';
import { bootApp, listenerOf } from '../factories/app';
import { validateOpenApi, VALIDATOR_TIMEOUT_MS } from '../factories/openapi';

class CreateReport {
  @IsString() @Length(1, 40) title!: string;
}

class ReportView {
  @IsInt() @Min(1) id!: number;
  @IsString() title!: string;
}

class ReportFilter {
  @IsString() @Length(1, 20) author!: string;
  @IsOptional() @IsInt() year?: number;
}

@Controller('reports')
class ReportController {
  @Get('search')
  search(@Query() filter: ReportFilter) {
    return filter;
  }

  @Get(':id')
  show(@Param('id') id: string, @Query('format', 'json') format: string) {
    return { id, format };
  }

  @Post()
  store(@Body() input: CreateReport) {
    return input;
  }

  @Get()
  index(ctx: Context) {
    return { page: ctx.query('page', '1') };
  }
}

class PhotoInput {
  @IsString() caption!: string;
}

const echo = (ctx: Context) => ({ id: ctx.req.params.id ?? null });

@ApiResource('api/photos', { input: PhotoInput, output: ReportView })
class PhotoApiController {
  index = echo;
  store = echo;
  show = echo;
  update = echo;
  destroy = echo;
}

@Resource('albums', { only: ['index', 'store', 'destroy'] })
class AlbumController {
  index = echo;
  store = echo;
  destroy = echo;
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Reports', version: '2.1.0' })],
  controllers: [ReportController, PhotoApiController, AlbumController],
})
class AppModule {}

let app: Application;
let document: OpenApiDocument;

beforeAll(async () => {
  app = await bootApp(AppModule);
  app.router.get('/ping', () => ({ pong: true }), { name: 'ping' });
  const res = await request(listenerOf(app)).get('/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  document = res.body as OpenApiDocument;
});

afterAll(() => app.close());

type Operation = Record<string, unknown> & { responses: Record<string, unknown> };

function operation(path: string, method: string): Operation {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found as Operation;
}

describe('GET /openapi.json', () => {
  test(
    'is an OpenAPI 3.1 document that passes the standard validator',
    async () => {
      expect(document.openapi).toBe('3.1.0');
      expect(document.info).toEqual({ title: 'Reports', version: '2.1.0' });
      expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
    },
    VALIDATOR_TIMEOUT_MS,
  );

  test('lists routes from @Controller and from app.router (added after boot), but not its own', () => {
    expect(Object.keys(document.paths)).toEqual([
      '/reports/search',
      '/reports/{id}',
      '/reports',
      '/api/photos',
      '/api/photos/{id}',
      '/albums',
      '/albums/{id}',
      '/ping',
    ]);
    expect(operation('/ping', 'get')).toEqual({
      operationId: 'ping',
      responses: { 200: { description: 'OK' } },
    });
  });

  test('a @Controller route: operationId, tag, path and @Query parameters, @Body class', () => {
    expect(operation('/reports/{id}', 'get')).toEqual({
      operationId: 'ReportController.show',
      tags: ['Report'],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'format', in: 'query', required: false, schema: { type: 'string', default: 'json' } },
      ],
      responses: { 200: { description: 'OK' } },
    });
    const store = operation('/reports', 'post');
    expect(store.requestBody).toEqual({
      required: true,
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/CreateReport' } },
        'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/CreateReport' } },
      },
    });
    expect(Object.keys(store.responses)).toEqual(['201', '400', '413', '415', '422']);
    expect(document.components.schemas.CreateReport).toEqual({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1, maxLength: 40 } },
      required: ['title'],
    });
  });

  test('a @Query() class: each of its properties is a query parameter, required unless optional', () => {
    expect(operation('/reports/search', 'get').parameters).toEqual([
      {
        name: 'author',
        in: 'query',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: 20 },
      },
      { name: 'year', in: 'query', required: false, schema: { type: 'integer' } },
    ]);
  });

  test('a route with no body class is documented without a body and without the body errors', () => {
    const index = operation('/reports', 'get');
    expect(index).not.toHaveProperty('requestBody');
    expect(Object.keys(index.responses)).toEqual(['200']);
  });

  test('an API resource has the convention statuses, { input } as its body and { output } as its answers', () => {
    const statuses = (path: string, method: string) => Object.keys(operation(path, method).responses);
    expect(statuses('/api/photos', 'get')).toEqual(['200']);
    expect(statuses('/api/photos', 'post')).toEqual(['201', '400', '413', '415', '422']);
    expect(statuses('/api/photos/{id}', 'get')).toEqual(['200', '404']);
    expect(statuses('/api/photos/{id}', 'put')).toEqual(['200', '400', '404', '413', '415', '422']);
    expect(statuses('/api/photos/{id}', 'delete')).toEqual(['204', '404']);

    const store = operation('/api/photos', 'post');
    expect(store.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/PhotoInput' } } },
    });
    expect(store.responses[201]).toEqual({
      description: 'Created; Location names the new resource',
      headers: { Location: { schema: { type: 'string' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ReportView' } } },
    });
    expect(store.responses[422]).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } },
    });
    expect(operation('/api/photos/{id}', 'get').responses[404]).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    // No output class for the list: the index's answer has no schema rather than a wrong one.
    expect(operation('/api/photos', 'get').responses[200]).toEqual({ description: 'OK' });
    expect(operation('/api/photos/{id}', 'delete')).not.toHaveProperty('requestBody');
  });

  test('PUT and PATCH of one action get distinct operation ids; tags come from the controllers', () => {
    expect(operation('/api/photos/{id}', 'put').operationId).toBe('api.photos.update.put');
    expect(operation('/api/photos/{id}', 'patch').operationId).toBe('api.photos.update.patch');
    expect(operation('/api/photos/{id}', 'get').operationId).toBe('api.photos.show');
    expect(document.tags).toEqual([{ name: 'Report' }, { name: 'PhotoApi' }, { name: 'Album' }]);
  });

  test('an HTML resource answers pages and redirects; without an input class it has no body', () => {
    const store = operation('/albums', 'post');
    expect(store).not.toHaveProperty('requestBody');
    expect(store.responses).toEqual({
      303: {
        description: 'Done; Location names the page to see',
        headers: { Location: { schema: { type: 'string' } } },
      },
    });
    expect(operation('/albums', 'get').responses[200]).toEqual({
      description: 'OK',
      content: { 'text/html': { schema: { type: 'string' } } },
    });
  });
});

describe('OpenApiModule.forRoot options', () => {
  test('a route added after the document was served appears in the next one', async () => {
    app.router.get('/late', function late() {
      return {};
    });
    const res = await request(listenerOf(app)).get('/openapi.json');
    expect(Object.keys((res.body as OpenApiDocument).paths)).toContain('/late');
  });

  test('path, docsPath and include move the routes and choose what is documented', async () => {
    @Module({
      imports: [
        OpenApiModule.forRoot({
          title: 'Reports',
          version: '1',
          path: 'spec.json',
          docsPath: '/api-docs',
          include: (route) => route.path.startsWith('/api/'),
        }),
      ],
      controllers: [ReportController, PhotoApiController],
    })
    class NarrowModule {}
    const narrow = await bootApp(NarrowModule);
    const res = await request(listenerOf(narrow)).get('/spec.json');
    expect(Object.keys((res.body as OpenApiDocument).paths)).toEqual(['/api/photos', '/api/photos/{id}']);
    const docs = await request(listenerOf(narrow)).get('/api-docs/swagger-initializer.js');
    expect(docs.text).toContain('"url":"/spec.json"');
    expect((await request(listenerOf(narrow)).get('/openapi.json')).status).toBe(404);
    await narrow.close();
  });

  test.each([
    [{ title: '', version: '1' }, 'the option openapi title is ""'],
    [{ title: 'Reports' }, 'the option openapi version is undefined'],
    [{ title: 'Reports', version: '1', include: 'api' }, 'the option openapi include is "api"'],
  ])('%j is refused, naming the option', (options, message) => {
    expect(() => OpenApiModule.forRoot(options as never)).toThrow(message);
  });
});

describe('GET /docs', () => {
  test('is the Swagger UI page, loading its assets and the document from the application only', async () => {
    const res = await request(listenerOf(app)).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<title>Reports</title>');
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(sources).toEqual([
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-initializer.js',
    ]);

    const starter = await request(listenerOf(app)).get('/docs/swagger-initializer.js');
    expect(starter.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(starter.text).toContain('"url":"/openapi.json"');
    expect(starter.text).toContain('"validatorUrl":null');
  });

  test.each([
    ['/docs/swagger-ui.css', 'text/css; charset=utf-8', '.swagger-ui'],
    ['/docs/swagger-ui-bundle.js', 'text/javascript; charset=utf-8', 'SwaggerUIBundle'],
  ])('serves %s from swagger-ui-dist', async (path, type, marker) => {
    const res = await request(listenerOf(app))
      .get(path)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString()));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body as string).toContain(marker);
  });
});

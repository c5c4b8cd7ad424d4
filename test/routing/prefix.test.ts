import {
  ApiResource,
  Controller,
  Get,
  HealthModule,
  MetricsModule,
  Module,
  OpenApiModule,
  Post,
  type Context,
  type OpenApiDocument,
} from 'keel';
import { formatRouteTable } from '../../src/cli/route-listing';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

@Controller('users')
class UserController {
  @Get()
  index() {
    return [{ id: 1 }];
  }

  @Post('login')
  login(ctx: Context) {
    ctx.redirect(303, ctx.urlFor('articles.show', { id: 7 }));
  }
}

@ApiResource('articles', { only: ['index', 'show'] })
class ArticleController {
  index() {
    return [];
  }

  show(ctx: Context) {
    return { id: ctx.param('id'), self: ctx.urlFor('articles.show', { id: ctx.param('id') }) };
  }
}

@Controller('tags')
class TagController {
  @Get()
  index() {
    return ['news'];
  }
}

class CommentController {
  index() {
    return [];
  }
}

@Module({
  imports: [
    HealthModule.forRoot(),
    MetricsModule.forRoot(),
    OpenApiModule.forRoot({ title: 'Blog', version: '1.0.0' }),
  ],
  controllers: [UserController, ArticleController],
})
class AppModule {}

const served = useServedApp(AppModule, { prefix: '/api/' }, (app) => {
  app.router.get('/ping', () => ({ pong: true }));
  app.router.controller(TagController);
  app.router.apiResource('comments', CommentController, { only: ['index'] });
});

async function status(path: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(`${served().url}${path}`, {
    ...init,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

test('every controller route answers under the prefix, and no longer without it', async () => {
  const answers = await Promise.all(
    [
      '/api/users',
      '/api/articles',
      '/api/articles/1',
      '/api/tags',
      '/api/comments',
      '/users',
      '/articles',
    ].map(async (path) => [path, await status(path)]),
  );
  expect(answers).toEqual([
    ['/api/users', 200],
    ['/api/articles', 200],
    ['/api/articles/1', 200],
    ['/api/tags', 200],
    ['/api/comments', 200],
    ['/users', 404],
    ['/articles', 404],
  ]);
});

test('function routes, health, metrics and the documentation stay where they are', async () => {
  const paths = ['/ping', '/health', '/metrics', '/openapi.json', '/docs', '/api/ping', '/api/health'];
  const answers = await Promise.all(paths.map(async (path) => [path, await status(path)]));
  expect(answers).toEqual([
    ['/ping', 200],
    ['/health', 200],
    ['/metrics', 200],
    ['/openapi.json', 200],
    ['/docs', 200],
    ['/api/ping', 404],
    ['/api/health', 404],
  ]);
});

test('urlFor keeps the routes’ names and gives their prefixed paths, in handlers, redirects and the application', async () => {
  const shown = (await (await fetch(`${served().url}/api/articles/3`)).json()) as unknown;
  expect(shown).toEqual({ id: '3', self: '/api/articles/3' });

  const login = await fetch(`${served().url}/api/users/login`, { method: 'POST', redirect: 'manual' });
  expect([login.status, login.headers.get('location')]).toEqual([303, '/api/articles/7']);

  expect(served().app.urlFor('UserController.index')).toBe('/api/users');
});

test('the OpenAPI document and the route listing show the prefixed paths', async () => {
  const document = (await (await fetch(`${served().url}/openapi.json`)).json()) as OpenApiDocument;
  expect(Object.keys(document.paths)).toEqual(
    expect.arrayContaining([
      '/api/users',
      '/api/users/login',
      '/api/articles',
      '/api/articles/{id}',
      '/api/tags',
    ]),
  );
  expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/'))).toEqual([
    '/health',
    '/health/ready',
    '/ping',
  ]);

  const listing = formatRouteTable(served().app.router.routes());
  expect(listing).toMatch(/^GET\s+\/api\/articles\/:id\s+ArticleController\.show\s+articles\.show$/m);
  expect(listing).toMatch(/^GET\s+\/health\s/m);
});

test.each([
  ['api', '"api"'],
  ['/api?v=1', '"/api?v=1"'],
  ['/api#top', '"/api#top"'],
  ['/my api', '"/my api"'],
  ['/:tenant', '"/:tenant"'],
  ['//', '"//"'],
  [42, '42'],
])('prefix %j is refused at boot with a message that says what a prefix is', async (prefix, shown) => {
  await expect(bootApp(moduleWith({}), { prefix: prefix as string })).rejects.toThrow(
    `E_INVALID_OPTION: the option prefix is ${shown}: expected a path such as '/api': a leading slash, then segments without '?', '#', spaces or parameters.`,
  );
});

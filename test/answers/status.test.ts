import {
  ApiResource,
  Controller,
  Delete,
  Get,
  HttpCode,
  Module,
  OpenApiModule,
  Patch,
  Post,
  Put,
  All,
  type Context,
  type OpenApiDocument,
} from 'keel';
import { useServedApp } from '../factories/app';

@Controller('tasks')
class TaskController {
  @Post()
  store() {
    return { id: 1 };
  }

  @Put(':id')
  replace(ctx: Context) {
    return { id: ctx.param('id') };
  }

  @Patch(':id')
  amend(ctx: Context) {
    return { id: ctx.param('id') };
  }

  @Get(':id')
  show(ctx: Context) {
    return { id: ctx.param('id') };
  }

  @HttpCode(204)
  @Delete(':id')
  async remove() {
    await Promise.resolve();
  }

  @HttpCode(202)
  @Post('imports')
  queue() {
    return { queued: true };
  }

  @HttpCode(204)
  @Post('pings')
  ping() {
    return { ignored: 'a 204 has no body' };
  }

  @Post('accepted')
  accepted(ctx: Context) {
    ctx.res.statusCode = 202;
    return { accepted: true };
  }

  @Post('silent')
  silent() {
    return undefined;
  }

  @All('any')
  any() {
    return { any: true };
  }
}

const echo = (ctx: Context) => ({ id: ctx.req.params.id ?? 'new' });

@HttpCode(200)
@ApiResource('api/notes', { only: ['store', 'destroy'] })
class NoteController {
  store = echo;
  destroy = echo;
}

@ApiResource('api/tags', { only: ['store', 'destroy'] })
class TagController {
  store = echo;
  destroy = echo;
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Tasks', version: '1.0.0' })],
  controllers: [TaskController, NoteController, TagController],
})
class AppModule {}

const served = useServedApp(AppModule, {}, (app) => {
  app.router.post('/plain', () => ({ plain: true }));
  app.router.delete('/plain/:id', () => ({ deleted: true }));
});

async function send(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${served().url}${path}`, { method, ...init });
}

describe('the status of a returned value', () => {
  test('a POST handler answers 201 with the value', async () => {
    const res = await send('POST', '/tasks');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: 1 });
  });

  test.each([
    ['PUT', '/tasks/3'],
    ['PATCH', '/tasks/3'],
    ['GET', '/tasks/3'],
    ['DELETE', '/plain/3'],
  ])('a %s handler answers 200 with the value', async (method, path) => {
    const res = await send(method, path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expect.any(Object));
  });

  test('HEAD served by a GET route answers 200, without a body', async () => {
    const res = await send('HEAD', '/tasks/3');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  test('a function route added with app.router.post answers 201', async () => {
    const res = await send('POST', '/plain');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ plain: true });
  });

  test('an @All route answers 200 whatever the method, POST included', async () => {
    expect((await send('POST', '/tasks/any')).status).toBe(200);
    expect((await send('GET', '/tasks/any')).status).toBe(200);
  });

  test('a form POST dispatched as DELETE by _method answers as the DELETE route does', async () => {
    const res = await send('POST', '/plain/9', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '_method=DELETE',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
  });

  test('a status the handler set on ctx.res wins over 201', async () => {
    const res = await send('POST', '/tasks/accepted');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
  });

  test('a POST handler that returns nothing and answers nothing is still a 500', async () => {
    const res = await send('POST', '/tasks/silent');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal server error' });
  });
});

describe('@HttpCode', () => {
  test('@HttpCode(204) on a handler that returns nothing answers 204 with no body', async () => {
    const res = await send('DELETE', '/tasks/3');
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  test('@HttpCode(204) drops a returned value: a 204 has no body', async () => {
    const res = await send('POST', '/tasks/pings');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  test('@HttpCode(202) on a POST answers 202 with the value', async () => {
    const res = await send('POST', '/tasks/imports');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ queued: true });
  });

  test('on a class it sets the status of every route, a resource store included', async () => {
    expect((await send('POST', '/api/notes')).status).toBe(200);
    expect((await send('POST', '/api/tags')).status).toBe(201);
  });

  test.each([199, 300, 404, 200.5, Number.NaN])(
    '@HttpCode(%p) is refused with E_INVALID_HTTP_CODE',
    (status) => {
      expect(() => HttpCode(status)).toThrow(/^E_INVALID_HTTP_CODE: @HttpCode\(.*\) names no success status/);
    },
  );
});

describe('the OpenAPI document states the status the handler answers', () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    document = (await (await send('GET', '/openapi.json')).json()) as OpenApiDocument;
  });
  const statuses = (path: string, method: string): string[] =>
    Object.keys((document.paths[path]?.[method] as { responses: object }).responses);
  const response = (path: string, method: string, status: number): unknown =>
    (document.paths[path]?.[method] as { responses: Record<string, unknown> }).responses[status];

  test('201 for a POST, 200 for PUT and DELETE, without a Location header outside a resource', () => {
    expect(statuses('/tasks', 'post')).toEqual(['201']);
    expect(response('/tasks', 'post', 201)).toEqual({ description: 'Created' });
    expect(statuses('/plain', 'post')).toEqual(['201']);
    expect(statuses('/tasks/{id}', 'put')).toEqual(['200']);
    expect(statuses('/plain/{id}', 'delete')).toEqual(['200']);
  });

  test('the @HttpCode status: 204 with no content, 202 described as HTTP names it', () => {
    expect(statuses('/tasks/{id}', 'delete')).toEqual(['204']);
    expect(response('/tasks/{id}', 'delete', 204)).toEqual({ description: 'Done; no content' });
    expect(statuses('/tasks/imports', 'post')).toEqual(['202']);
    expect(response('/tasks/imports', 'post', 202)).toEqual({ description: 'Accepted' });
  });

  test("a resource action's @HttpCode replaces its conventional success and keeps its errors", () => {
    expect(statuses('/api/notes', 'post')).toEqual(['200']);
    expect(statuses('/api/notes/{id}', 'delete')).toEqual(['200', '404']);
    expect(statuses('/api/tags', 'post')).toEqual(['201']);
    expect(statuses('/api/tags/{id}', 'delete')).toEqual(['204', '404']);
  });
});

import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import {
  Controller,
  Get,
  Header,
  Headers,
  HttpError,
  OpenApiModule,
  Module,
  ParseIntPipe,
  type Context,
  type OpenApiDocument,
} from 'keel';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

@Controller('headers')
class HeaderController {
  @Get('tenant')
  tenant(@Headers('X-Tenant', 'public') tenant: string) {
    return { tenant };
  }

  @Get('optional')
  optional(@Headers('x-trace') trace: string | undefined) {
    return { trace: trace ?? null };
  }

  @Get('all')
  all(@Headers() headers: IncomingHttpHeaders) {
    return { tenant: headers['x-tenant'], host: typeof headers.host };
  }

  @Get('version')
  version(@Headers('x-version', '1', ParseIntPipe) version: number) {
    return { version };
  }

  @Get('read')
  read(ctx: Context) {
    return { accept: ctx.requestHeader('ACCEPT'), missing: ctx.requestHeader('x-none', 'fallback') };
  }

  @Header('Cache-Control', 'public, max-age=60')
  @Header('X-Served-By', 'keel')
  @Get('cached')
  cached() {
    return { cached: true };
  }

  @Header('X-Served-By', 'keel')
  @Get('own')
  own(ctx: Context) {
    ctx.header('X-Served-By', 'the handler');
    ctx.json(200, { own: true });
  }

  @Header('X-Served-By', 'keel')
  @Get('failing')
  failing() {
    throw new HttpError(409, 'taken');
  }
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Headers', version: '1.0.0' })],
  controllers: [HeaderController],
})
class AppModule {}

const served = useServedApp(AppModule);

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${served().url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

/** GET with the raw header lines given, repeated names included, which fetch would merge. */
function getRaw(path: string, lines: readonly [string, string][]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, served().url);
    // Given as raw lines, the headers are sent as written, and Node adds no Host of its own.
    const headers = [['Host', url.host], ...lines].flat();
    const request = http.request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    request.on('error', reject).end();
  });
}

describe('@Headers and ctx.requestHeader read request headers', () => {
  test('a header by name, in any case, or the fallback when it is absent', async () => {
    expect((await get('/headers/tenant', { 'x-tenant': 'acme' })).body).toEqual({ tenant: 'acme' });
    expect((await get('/headers/tenant')).body).toEqual({ tenant: 'public' });
    expect((await get('/headers/optional')).body).toEqual({ trace: null });
  });

  test('a repeated header is joined with commas, as Node joins it', async () => {
    const body = await getRaw('/headers/tenant', [
      ['X-Tenant', 'a'],
      ['x-tenant', 'b'],
    ]);
    expect(body).toEqual({ tenant: 'a, b' });
  });

  test('@Headers() gives every header by lower-case name', async () => {
    expect((await get('/headers/all', { 'X-Tenant': 'acme' })).body).toEqual({
      tenant: 'acme',
      host: 'string',
    });
  });

  test('pipes convert a header, and refuse one that is not what they take with 400', async () => {
    expect((await get('/headers/version', { 'x-version': '2' })).body).toEqual({ version: 2 });
    expect(await get('/headers/version', { 'x-version': 'two' })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('header "x-version"') as unknown },
    });
  });

  test('ctx.requestHeader reads a header in any case, or the fallback', async () => {
    expect((await get('/headers/read', { accept: 'application/json' })).body).toEqual({
      accept: 'application/json',
      missing: 'fallback',
    });
  });

  test('the OpenAPI document lists a named @Headers as a header parameter', async () => {
    const document = (await (await fetch(`${served().url}/openapi.json`)).json()) as OpenApiDocument;
    expect(document.paths['/headers/tenant']?.get?.parameters).toEqual([
      { name: 'X-Tenant', in: 'header', required: false, schema: { type: 'string', default: 'public' } },
    ]);
  });
});

describe('@Header sets a response header on the handler’s answers', () => {
  test('every header it declares, on a returned value', async () => {
    const answer = await get('/headers/cached');
    expect([answer.headers.get('cache-control'), answer.headers.get('x-served-by')]).toEqual([
      'public, max-age=60',
      'keel',
    ]);
  });

  test('a header the handler sets itself wins', async () => {
    expect((await get('/headers/own')).headers.get('x-served-by')).toBe('the handler');
  });

  test('an error answer stays uncacheable', async () => {
    const answer = await get('/headers/failing');
    expect([answer.status, answer.headers.get('cache-control')]).toEqual([409, 'no-store']);
  });

  test('a name that is no header name is refused at boot, naming the route', async () => {
    @Controller('bad')
    class BadController {
      @Header('X Bad', 'v')
      @Get()
      index() {
        return {};
      }
    }
    await expect(bootApp(moduleWith({ controllers: [BadController] }))).rejects.toThrow(
      'E_INVALID_ROUTE: BadController.index (GET /bad): @Header("X Bad", "v") needs a header name and a value of one line',
    );
  });
});

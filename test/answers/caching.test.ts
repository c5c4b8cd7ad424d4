import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CacheControl, Controller, Get, Module, Post, type Context } from 'keel';
import { useServedApp } from '../factories/app';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keel-etag-'));
  await writeFile(path.join(dir, 'price-list.csv'), 'tea,3\n');
});

afterAll(() => rm(dir, { recursive: true, force: true }));

let version = 1;

@Controller('catalogue')
class CatalogueController {
  @Get('json')
  json() {
    return { version };
  }

  @Get('context-json')
  contextJson(ctx: Context) {
    ctx.json(200, { version });
  }

  @Get('page')
  page(ctx: Context) {
    ctx.html(200, 'answers/hello.html', { name: `v${version}` });
  }

  @Get('file')
  file(ctx: Context) {
    return ctx.sendFile('price-list.csv', { root: dir });
  }

  @CacheControl('public, max-age=60')
  @Get('cached')
  cached() {
    return { cached: true };
  }

  @Post('json')
  store() {
    return { version };
  }

  // A validator the application knows better than a hash of the body: the record's version.
  @Get('versioned')
  versioned(ctx: Context) {
    ctx.header('ETag', `"v${version}"`);
    return { version };
  }
}

@Module({ controllers: [CatalogueController] })
class AppModule {}

const served = useServedApp(AppModule);
const untagged = useServedApp(AppModule, { etag: false });

interface Seen {
  readonly status: number;
  readonly etag: string | undefined;
  readonly cacheControl: string | undefined;
  readonly body: string;
}

// node:http, as a browser revalidates: fetch would add `Cache-Control: no-cache` to a conditional request.
function request(url: string, method = 'GET', headers: Record<string, string> = {}): Promise<Seen> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: res.headers.etag,
            cacheControl: res.headers['cache-control'],
            body,
          }),
        );
      })
      .on('error', reject)
      .end();
  });
}

describe.each([
  ['a returned value', '/catalogue/json'],
  ['ctx.json', '/catalogue/context-json'],
  ['ctx.html', '/catalogue/page'],
  ['ctx.sendFile', '/catalogue/file'],
])('the ETag of %s', (_kind, route) => {
  test('a 200 carries a weak ETag; If-None-Match with it answers 304 with no body', async () => {
    const first = await request(`${served().url}${route}`);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\/".+"$/);
    const again = await request(`${served().url}${route}`, 'GET', { 'if-none-match': first.etag as string });
    expect(again).toEqual({ status: 304, etag: first.etag, cacheControl: undefined, body: '' });
  });

  test('HEAD carries the same ETag as GET', async () => {
    const get = await request(`${served().url}${route}`);
    const head = await request(`${served().url}${route}`, 'HEAD');
    expect(head.etag).toBe(get.etag);
  });

  test('option etag: false leaves it out, and the tag it would have had gets the whole answer', async () => {
    const { etag } = await request(`${served().url}${route}`);
    const res = await request(`${untagged().url}${route}`, 'GET', { 'if-none-match': etag as string });
    expect(res.status).toBe(200);
    expect(res.etag).toBeUndefined();
    expect(res.body).not.toBe('');
  });
});

test('a changed answer has another ETag, so the old one gets the whole answer', async () => {
  const before = await request(`${served().url}/catalogue/json`);
  version += 1;
  const after = await request(`${served().url}/catalogue/json`, 'GET', {
    'if-none-match': before.etag as string,
  });
  expect(after.status).toBe(200);
  expect(after.etag).not.toBe(before.etag);
  expect(JSON.parse(after.body)).toEqual({ version });
});

test('If-None-Match lists several tags, strong or weak: any match is a 304', async () => {
  const { etag } = await request(`${served().url}/catalogue/json`);
  const strong = (etag as string).slice(2);
  const res = await request(`${served().url}/catalogue/json`, 'GET', {
    'if-none-match': `"other", ${strong}`,
  });
  expect(res.status).toBe(304);
});

test("keel's tag is W/ and twelve characters of a 58-bit hash of the body: equal bodies, equal tags", async () => {
  const first = await request(`${served().url}/catalogue/json`);
  const second = await request(`${served().url}/catalogue/context-json`);
  expect(first.etag).toMatch(/^W\/"[0-9a-z]{12}"$/);
  expect(second.body).toBe(first.body);
  expect(second.etag).toBe(first.etag);
});

test("an ETag the handler set is the answer's, and If-None-Match with it answers 304", async () => {
  const first = await request(`${served().url}/catalogue/versioned`);
  expect(first.etag).toBe(`"v${version}"`);
  const again = await request(`${served().url}/catalogue/versioned`, 'GET', {
    'if-none-match': `"v${version}"`,
  });
  expect(again).toMatchObject({ status: 304, etag: `"v${version}"`, body: '' });
  const weakly = await request(`${served().url}/catalogue/versioned`, 'GET', {
    'if-none-match': `W/"v${version}"`,
  });
  expect(weakly.status).toBe(304);
  const stale = await request(`${served().url}/catalogue/versioned`, 'GET', { 'if-none-match': '"v0"' });
  expect(stale.status).toBe(200);
});

test('a POST answer (201) carries no ETag', async () => {
  const res = await request(`${served().url}/catalogue/json`, 'POST');
  expect(res.status).toBe(201);
  expect(res.etag).toBeUndefined();
});

test('@CacheControl sets Cache-Control; without it there is none', async () => {
  expect((await request(`${served().url}/catalogue/cached`)).cacheControl).toBe('public, max-age=60');
  expect((await request(`${served().url}/catalogue/json`)).cacheControl).toBeUndefined();
});

import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Controller, Get, Module, type Context } from 'keel';
import { useServedApp } from '../factories/app';

// 1000 bytes whose every position is known: byte i is the digit i % 10.
const CONTENT = Array.from({ length: 1000 }, (_, i) => String(i % 10)).join('');
const MODIFIED = new Date('2026-01-02T03:04:05Z');

let dir: string;
let root: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keel-files-'));
  root = path.join(dir, 'public');
  await writeFile(path.join(dir, 'secret.txt'), 'not for clients');
  await mkdir(root);
  await writeFile(path.join(root, 'report.csv'), CONTENT);
  await utimes(path.join(root, 'report.csv'), MODIFIED, MODIFIED);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

@Controller('files')
class FileController {
  @Get('bytes')
  bytes() {
    return Buffer.from([0, 1, 2, 255]);
  }

  @Get('typed-bytes')
  typedBytes(ctx: Context) {
    ctx.header('Content-Type', 'image/png');
    return new Uint8Array([137, 80, 78, 71]);
  }

  @Get('stream')
  stream() {
    return Readable.from(['a,b\n', '1,2\n']);
  }

  @Get('report')
  report(ctx: Context) {
    return ctx.sendFile('report.csv', { root });
  }

  @Get('inline')
  inline(ctx: Context) {
    return ctx.sendFile(path.join(root, 'report.csv'), {
      inline: true,
      filename: 'Übersicht.csv',
      type: 'text/plain',
    });
  }

  @Get('named/:name')
  named(ctx: Context) {
    void ctx.sendFile(ctx.param('name'), { root });
  }

  @Get('generated')
  generated(ctx: Context) {
    return ctx.sendFile(Readable.from(['x,y\n']), { filename: 'generated.csv' });
  }
}

@Module({ controllers: [FileController] })
class AppModule {}

const served = useServedApp(AppModule);

function get(pathname: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${served().url}${pathname}`, { headers });
}

// fetch adds `Cache-Control: no-cache` to a request with a condition, which asks for the whole answer:
// a conditional request as a browser revalidating sends it goes through node:http.
function revalidate(
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${served().url}${pathname}`, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('a returned body that is not JSON', () => {
  test('a Buffer answers application/octet-stream with its bytes and length', async () => {
    const res = await get('/files/bytes');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe('4');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });

  test('a Uint8Array keeps the Content-Type the handler set', async () => {
    const res = await get('/files/typed-bytes');
    expect(res.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([137, 80, 78, 71]);
  });

  test('a Readable is streamed, chunked', async () => {
    const res = await get('/files/stream');
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(await res.text()).toBe('a,b\n1,2\n');
  });
});

describe('ctx.sendFile', () => {
  test('sends the file with its type, an attachment disposition, Last-Modified, a weak ETag and Accept-Ranges', async () => {
    const res = await get('/files/report');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(CONTENT);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=report.csv');
    expect(res.headers.get('last-modified')).toBe(MODIFIED.toUTCString());
    expect(res.headers.get('etag')).toMatch(/^W\/"/);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('cache-control')).toBeNull();
  });

  test('inline, with a type and a name outside ISO-8859-1', async () => {
    const res = await get('/files/inline');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="?bersicht.csv"; filename*=UTF-8''%C3%9Cbersicht.csv`,
    );
  });

  test('a stream is sent with its disposition and the type its name gives', async () => {
    const res = await get('/files/generated');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=generated.csv');
    expect(await res.text()).toBe('x,y\n');
  });

  test.each([
    ['bytes=0-99', 'bytes 0-99/1000', CONTENT.slice(0, 100)],
    ['bytes=-100', 'bytes 900-999/1000', CONTENT.slice(900)],
    ['bytes=990-', 'bytes 990-999/1000', CONTENT.slice(990)],
  ])('Range %s answers 206 with %s', async (range, contentRange, body) => {
    const res = await get('/files/report', { range });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(contentRange);
    expect(await res.text()).toBe(body);
  });

  test('a range past the end answers 416 with Content-Range: bytes */size, in the error shape', async () => {
    const res = await get('/files/report', { range: 'bytes=5000-6000' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(await res.json()).toEqual({ error: 'range not satisfiable' });
  });

  test('If-Range with the current ETag gets the range; with another, the whole file', async () => {
    const etag = (await get('/files/report')).headers.get('etag') as string;
    const matching = await get('/files/report', { range: 'bytes=0-9', 'if-range': etag });
    expect(matching.status).toBe(206);
    expect(await matching.text()).toBe('0123456789');
    const stale = await get('/files/report', { range: 'bytes=0-9', 'if-range': 'W/"stale"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(CONTENT);
  });

  test('If-None-Match with its ETag, or If-Modified-Since its date, answers 304 with no body', async () => {
    const etag = (await get('/files/report')).headers.get('etag') as string;
    expect(await revalidate('/files/report', { 'if-none-match': etag })).toEqual({ status: 304, body: '' });
    const since = { 'if-modified-since': MODIFIED.toUTCString() };
    expect(await revalidate('/files/report', since)).toEqual({ status: 304, body: '' });
    const before = { 'if-modified-since': new Date('2025-01-01').toUTCString() };
    expect(await revalidate('/files/report', before)).toEqual({ status: 200, body: CONTENT });
  });

  test('a missing file answers 404 in the error shape', async () => {
    const res = await get('/files/named/absent.csv');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(await res.json()).toEqual({ error: 'file not found' });
  });

  test.each([
    '..%2Fsecret.txt',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2E%2E%2Fsecret.txt',
    'sub%2F..%2F..%2Fsecret.txt',
  ])('a name that leaves the root (%s) answers 404 and nothing of the file', async (name) => {
    const res = await get(`/files/named/${name}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('{"error":"file not found"}');
  });

  test('a file under the root named by a handler that does not await sendFile is still sent', async () => {
    const res = await get('/files/named/report.csv');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(CONTENT);
  });
});

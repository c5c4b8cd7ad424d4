import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { captureLog, type LogCapture } from '../factories/log';

// A views directory with sentinel files just outside it, whose content must never be served.
const BOUNDARY = path.join(__dirname, '..', 'fixtures', 'views-boundary');
const VIEWS = path.join(BOUNDARY, 'views');
const SENTINELS = [path.join(BOUNDARY, 'package.json'), path.join(BOUNDARY, 'secret.html')];

let app: Application;
let log: LogCapture;
let readFileSync: jest.SpyInstance;

beforeEach(async () => {
  log = captureLog();
  app = await bootApp(moduleWith({}), { views: VIEWS, logger: log.logger });
  app.router
    .get('/render', (ctx) => ctx.html(200, ctx.query('name', 'inside.html'), { name: 'x' }))
    .get('/ok', () => ({ ok: true }));
  readFileSync = jest.spyOn(fs, 'readFileSync');
});

afterEach(() => {
  readFileSync.mockRestore();
});

function filesReadUnder(directory: string): string[] {
  return readFileSync.mock.calls
    .map((call: unknown[]) => String(call[0]))
    .filter((file) => file.startsWith(directory + path.sep));
}

test('a template inside the views directory renders, and the read is observed', async () => {
  const res = await request(listenerOf(app)).get('/render').query({ name: 'inside.html' });
  expect(res.status).toBe(200);
  expect(res.text).toBe('<p>inside the views directory</p>\n');
  expect(filesReadUnder(VIEWS)).toEqual([path.join(VIEWS, 'inside.html')]);
});

describe.each([
  ['a parent-relative name', '../package.json'],
  ['a parent-relative template', '../secret.html'],
  ['a name that climbs further', '../../etc/passwd'],
  ['an absolute path to a sentinel', path.join(BOUNDARY, 'secret.html')],
  ['an absolute system path', '/etc/passwd'],
  ['a name with a NUL byte', 'inside.html\0../secret.html'],
  ['a name that climbs out and back in', '../views-boundary/../secret.html'],
])('%s (%j)', (_label, name) => {
  test('is refused with 500 {"error":"internal server error"}', async () => {
    const res = await request(listenerOf(app)).get('/render').query({ name });
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"error":"internal server error"}');
  });

  test('is never read', async () => {
    const res = await request(listenerOf(app)).get('/render').query({ name });
    expect(res.text).not.toContain('SENTINEL');
    expect(res.text).not.toContain('root:');
    expect(filesReadUnder(BOUNDARY)).toEqual([]);
    for (const sentinel of SENTINELS) expect(readFileSync).not.toHaveBeenCalledWith(sentinel, 'utf8');
    expect(readFileSync).not.toHaveBeenCalledWith('/etc/passwd', expect.anything());
  });

  test('is logged with the code E_TEMPLATE_OUTSIDE_VIEWS', async () => {
    await request(listenerOf(app)).get('/render').query({ name });
    const errors = log.entries().filter((entry) => entry.msg === 'request failed');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.err?.code).toBe('E_TEMPLATE_OUTSIDE_VIEWS');
  });

  test('leaves the application serving', async () => {
    await request(listenerOf(app)).get('/render').query({ name });
    const res = await request(listenerOf(app)).get('/ok');
    expect(res.status).toBe(200);
  });
});

test('a missing template is 500 and logged', async () => {
  const res = await request(listenerOf(app)).get('/render').query({ name: 'missing.html' });
  expect(res.status).toBe(500);
  expect(res.text).toBe('{"error":"internal server error"}');
  expect(log.entries().filter((entry) => entry.msg === 'request failed')).toHaveLength(1);
  expect((await request(listenerOf(app)).get('/ok')).status).toBe(200);
});

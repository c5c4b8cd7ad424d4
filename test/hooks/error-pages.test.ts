import path from 'node:path';
import request from 'supertest';
import { Controller, Get, type Context } from 'keel';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

const VIEWS_WITH_ERROR_PAGES = path.join(__dirname, '..', 'fixtures', 'views-errors');
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

@Controller('pages')
class PageController {
  @Get('crash') crash() {
    throw new Error('secret detail of the crash');
  }
  @Get('gone') gone(ctx: Context) {
    ctx.error(404, 'that page is gone');
  }
  @Get('teapot') teapot(ctx: Context) {
    ctx.error(418, 'short and stout');
  }
}

describe('HTML error pages chosen by Accept', () => {
  const served = useServedApp(moduleWith({ controllers: [PageController] }), {
    views: VIEWS_WITH_ERROR_PAGES,
  });
  const url = (): string => served().url;

  test('a browser gets views/errors/404.html for an unknown path, with the status and message', async () => {
    const res = await request(url()).get('/nowhere').set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Page 404: not here');
    expect(res.text).toContain('no route for GET /nowhere');
  });

  test('a JSON client gets JSON for the same request', async () => {
    const res = await request(url()).get('/nowhere').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'no route for GET /nowhere' });
  });

  test('ctx.error renders the page for a browser', async () => {
    const res = await request(url()).get('/pages/gone').set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(404);
    expect(res.text).toContain('that page is gone');
  });

  test('a status without its own page renders errors/default.html', async () => {
    const res = await request(url()).get('/pages/teapot').set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(418);
    expect(res.text).toContain('Something went wrong (418)');
  });

  test("a 500's message is hidden in the page and in the JSON", async () => {
    const page = await request(url()).get('/pages/crash').set('Accept', BROWSER_ACCEPT);
    const json = await request(url()).get('/pages/crash').set('Accept', 'application/json');
    expect(page.status).toBe(500);
    expect(page.text).toContain('internal server error');
    expect(page.text).not.toContain('secret detail');
    expect(json.status).toBe(500);
    expect(json.body).toEqual({ error: 'internal server error' });
  });

  test('an application without error pages answers a browser with JSON', async () => {
    const plain = await bootApp(moduleWith({ controllers: [PageController] }));
    const { url: plainUrl } = await plain.listen(0, '127.0.0.1');
    try {
      const res = await request(plainUrl).get('/nowhere').set('Accept', BROWSER_ACCEPT);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'no route for GET /nowhere' });
    } finally {
      await plain.close();
    }
  });
});

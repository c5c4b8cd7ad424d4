import type { NextFunction, Request, Response } from 'express';
import { Controller, Get, type Application } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { send } from '../factories/routing';

@Controller('pages')
class PageController {
  @Get(':id') show() {
    return { page: true };
  }
}

function tagResponses(_req: Request, res: Response, next: NextFunction): void {
  res.set('X-Tagged', 'yes');
  next();
}

describe('middleware mounted with app.express.use() after createApplication', () => {
  let app: Application;

  beforeAll(async () => {
    app = await bootApp(moduleWith({ controllers: [PageController] }));
    app.express.use(tagResponses);
    app.express.use('/pages/closed', (_req: Request, res: Response) => {
      res.status(403).json({ error: 'closed by middleware' });
    });
  });

  test('runs before a keel route: its header is on the route response', async () => {
    const res = await send(app, 'GET', '/pages/1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ page: true });
    expect(res.headers['x-tagged']).toBe('yes');
  });

  test('runs before the 404: its header is on the 404 response', async () => {
    const res = await send(app, 'GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['x-tagged']).toBe('yes');
  });

  test('runs before the 405: its header is on the 405 response', async () => {
    const res = await send(app, 'DELETE', '/pages/1');
    expect(res.status).toBe(405);
    expect(res.headers['x-tagged']).toBe('yes');
  });

  test('can answer instead of a keel route that matches the same path', async () => {
    const res = await send(app, 'GET', '/pages/closed');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'closed by middleware' });
  });
});

test('middleware mounted after the first request still runs before keel routes', async () => {
  const app = await bootApp(moduleWith({ controllers: [PageController] }));
  expect((await send(app, 'GET', '/pages/1')).headers['x-tagged']).toBeUndefined();

  app.express.use(tagResponses);
  const res = await send(app, 'GET', '/pages/1');
  expect(res.body).toEqual({ page: true });
  expect(res.headers['x-tagged']).toBe('yes');
});

describe('error middleware given to app.use() after createApplication', () => {
  let app: Application;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await bootApp(moduleWith({}));
    app.router
      .get('/teapot', () => {
        throw new Error('brewing');
      })
      .get('/reported', () => {
        throw new Error('reported only');
      });
    // An error reporter: records, then leaves the answer to keel.
    app.use((error: Error, _req: Request, _res: Response, next: NextFunction) => {
      seen.push(error.message);
      next(error);
    });
    app.use((error: Error, req: Request, res: Response, next: NextFunction) => {
      if (req.path !== '/teapot') return next(error);
      res.status(418).json({ error: 'answered by the user' });
    });
    app.express.get('/raw', (_req: Request, res: Response) => {
      res.json({ raw: true });
    });
  });

  test('see the errors of keel routes and may answer them', async () => {
    const res = await send(app, 'GET', '/teapot');
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ error: 'answered by the user' });
    expect(seen).toContain('brewing');
  });

  test('that pass the error on leave the answer to keel', async () => {
    const res = await send(app, 'GET', '/reported');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error' });
    expect(seen).toContain('reported only');
  });

  test('leave plain Express routes mounted on app.express answering', async () => {
    const res = await send(app, 'GET', '/raw');
    expect(res.body).toEqual({ raw: true });
  });
});

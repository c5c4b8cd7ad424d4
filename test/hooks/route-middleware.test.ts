import cors from 'cors';
import request from 'supertest';
import { Controller, Get, Post, UseMiddleware } from 'keel';
import { moduleWith, useServedApp } from '../factories/app';

const ORIGIN = 'https://shop.example';

@UseMiddleware(cors({ origin: ORIGIN }))
@Controller('public')
class PublicController {
  @Get('prices') prices() {
    return { prices: [] };
  }
  @Post('prices') quote() {
    return { quoted: true };
  }
}

@Controller('internal')
class InternalController {
  @Get('prices') prices() {
    return { internal: true };
  }
  @Post('prices') quote() {
    return { quoted: true };
  }
}

describe('@UseMiddleware(cors()) on one controller', () => {
  const served = useServedApp(moduleWith({ controllers: [PublicController, InternalController] }));
  const url = (): string => served().url;

  test('a preflight to that controller gets the CORS headers from the real cors package', async () => {
    const res = await request(url())
      .options('/public/prices')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  test('its routes answer with the CORS headers', async () => {
    const res = await request(url()).get('/public/prices').set('Origin', ORIGIN);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  test('a preflight to another controller gets no CORS headers, only Allow', async () => {
    const res = await request(url())
      .options('/internal/prices')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    const get = await request(url()).get('/internal/prices').set('Origin', ORIGIN);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});

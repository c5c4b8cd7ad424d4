import { describe, expect, test } from '@jest/globals';
import { ApiResource, Controller, Get, Version, type Context } from 'keel';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

@Version('1')
@Controller('orders')
class OrderV1Controller {
  @Get() list() {
    return { version: 1, orders: [] };
  }

  @Get(':id') show(ctx: Context) {
    return { version: 1, id: ctx.param('id') };
  }
}

@Version('2')
@Controller('orders')
class OrderV2Controller {
  @Get() list() {
    return { version: 2, items: [] };
  }

  // A method's @Version replaces its class's.
  @Version(['2', '3']) @Get('summary') summary() {
    return { summary: true };
  }
}

// No @Version: served whatever the version asked.
@Controller('status')
class StatusController {
  @Get() show() {
    return { status: 'ok' };
  }
}

const controllers = [OrderV1Controller, OrderV2Controller, StatusController];

async function answer(url: string, headers: Record<string, string> = {}): Promise<[number, unknown]> {
  const res = await fetch(url, { headers });
  return [res.status, await res.json()];
}

describe("versioning: { type: 'uri' }", () => {
  const served = useServedApp(moduleWith({ controllers }), { versioning: { type: 'uri' } });

  test('/v1/orders and /v2/orders reach different handlers', async () => {
    expect(await answer(`${served().url}/v1/orders`)).toEqual([200, { version: 1, orders: [] }]);
    expect(await answer(`${served().url}/v2/orders`)).toEqual([200, { version: 2, items: [] }]);
    expect(await answer(`${served().url}/v1/orders/7`)).toEqual([200, { version: 1, id: '7' }]);
    expect(await answer(`${served().url}/v3/orders/summary`)).toEqual([200, { summary: true }]);
  });

  test('a version nobody serves, or none at all, is 404; an unversioned route keeps its path', async () => {
    expect((await answer(`${served().url}/v9/orders`))[0]).toBe(404);
    expect((await answer(`${served().url}/orders`))[0]).toBe(404);
    expect((await answer(`${served().url}/v2/orders/7`))[0]).toBe(404);
    expect(await answer(`${served().url}/status`)).toEqual([200, { status: 'ok' }]);
  });

  test('routes are named name@version', () => {
    expect(served().app.urlFor('OrderV1Controller.show@1', { id: 7 })).toBe('/v1/orders/7');
    expect(served().app.urlFor('OrderV2Controller.summary@3')).toBe('/v3/orders/summary');
  });
});

describe("versioning: { type: 'uri' } with prefix: '/api'", () => {
  const served = useServedApp(moduleWith({ controllers }), { versioning: { type: 'uri' }, prefix: '/api' });

  test('the version follows the prefix: /api/v2/orders', async () => {
    expect(await answer(`${served().url}/api/v2/orders`)).toEqual([200, { version: 2, items: [] }]);
    expect(await answer(`${served().url}/api/status`)).toEqual([200, { status: 'ok' }]);
    expect((await answer(`${served().url}/v2/api/orders`))[0]).toBe(404);
  });
});

describe("versioning: { type: 'uri', defaultVersion: '2' }", () => {
  const served = useServedApp(moduleWith({ controllers }), {
    versioning: { type: 'uri', defaultVersion: '2' },
  });

  test('the default version also answers on the path without a version', async () => {
    expect(await answer(`${served().url}/orders`)).toEqual([200, { version: 2, items: [] }]);
    expect(await answer(`${served().url}/v1/orders`)).toEqual([200, { version: 1, orders: [] }]);
  });
});

describe("versioning: { type: 'header', header: 'Accept-Version' }", () => {
  const served = useServedApp(moduleWith({ controllers }), {
    versioning: { type: 'header', header: 'Accept-Version' },
  });

  test('the header picks the handler on one path', async () => {
    const orders = `${served().url}/orders`;
    expect(await answer(orders, { 'Accept-Version': '1' })).toEqual([200, { version: 1, orders: [] }]);
    expect(await answer(orders, { 'accept-version': '2' })).toEqual([200, { version: 2, items: [] }]);
    expect(await answer(`${orders}/5`, { 'Accept-Version': '1' })).toEqual([200, { version: 1, id: '5' }]);
  });

  test('a version nobody serves is 404, and so is a request that names none', async () => {
    const [status, body] = await answer(`${served().url}/orders`, { 'Accept-Version': '9' });
    expect([status, body]).toEqual([404, { error: 'no route for GET /orders' }]);
    expect((await answer(`${served().url}/orders`))[0]).toBe(404);
    // Version 2 has no route for /orders/:id.
    expect((await answer(`${served().url}/orders/5`, { 'Accept-Version': '2' }))[0]).toBe(404);
  });

  test('an unversioned route answers any version, and none', async () => {
    expect(await answer(`${served().url}/status`, { 'Accept-Version': '9' })).toEqual([
      200,
      { status: 'ok' },
    ]);
    expect(await answer(`${served().url}/status`)).toEqual([200, { status: 'ok' }]);
  });
});

describe("versioning: { type: 'media', key: 'v', defaultVersion: '1' }", () => {
  const served = useServedApp(moduleWith({ controllers }), {
    versioning: { type: 'media', key: 'v', defaultVersion: '1' },
  });

  test("the Accept header's parameter picks the handler; without one, the default version answers", async () => {
    const orders = `${served().url}/orders`;
    expect(await answer(orders, { Accept: 'application/json;v=2' })).toEqual([
      200,
      { version: 2, items: [] },
    ]);
    expect(await answer(orders, { Accept: 'text/html, application/json; v=1' })).toEqual([
      200,
      { version: 1, orders: [] },
    ]);
    expect(await answer(orders, { Accept: 'application/json' })).toEqual([200, { version: 1, orders: [] }]);
    expect((await answer(orders, { Accept: 'application/json;v=7' }))[0]).toBe(404);
  });
});

describe('versions at boot', () => {
  test('two handlers of one version, method and path are a route conflict naming both', async () => {
    @Version('2')
    @Controller('orders')
    class AnotherV2Controller {
      @Get() list() {
        return [];
      }
    }
    for (const versioning of [{ type: 'uri' }, { type: 'header', header: 'Accept-Version' }] as const) {
      await expect(
        bootApp(moduleWith({ controllers: [OrderV2Controller, AnotherV2Controller] }), { versioning }),
      ).rejects.toThrow(/E_ROUTE_CONFLICT.*OrderV2Controller\.list.*AnotherV2Controller\.list/s);
    }
  });

  test('two versions of a resource live side by side', async () => {
    @Version('1')
    @ApiResource('items', { only: ['index'] })
    class ItemV1Controller {
      index() {
        return [1];
      }
    }
    @Version('2')
    @ApiResource('items', { only: ['index'] })
    class ItemV2Controller {
      index() {
        return [2];
      }
    }
    const app = await bootApp(moduleWith({ controllers: [ItemV1Controller, ItemV2Controller] }), {
      versioning: { type: 'header', header: 'X-Api-Version' },
    });
    const { url } = await app.listen(0, '127.0.0.1');
    try {
      expect(await answer(`${url}/items`, { 'X-Api-Version': '2' })).toEqual([200, [2]]);
      expect(await answer(`${url}/items`, { 'X-Api-Version': '1' })).toEqual([200, [1]]);
    } finally {
      await app.close();
    }
  });

  test('@Version without the option versioning is a boot error saying what to add', async () => {
    await expect(bootApp(moduleWith({ controllers: [OrderV1Controller] }))).rejects.toThrow(
      /OrderV1Controller\.list: @Version\('1'\) needs the application option versioning/,
    );
  });

  test.each([
    [{ type: 'path' }, 'versioning'],
    [{ type: 'header' }, 'versioning.header'],
    [{ type: 'media', key: 'v;x' }, 'versioning.key'],
    [{ type: 'uri', defaultVersion: '2/3' }, 'versioning.defaultVersion'],
  ])('%j is a boot error naming %s', async (versioning, option) => {
    await expect(bootApp(moduleWith({ controllers }), { versioning: versioning as never })).rejects.toThrow(
      expect.objectContaining({ code: 'E_INVALID_OPTION', message: expect.stringContaining(option) }),
    );
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Get, Inject, Injectable, LOGGER, currentRequest, type Context, type Logger } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { captureLog } from '../factories/log';

/** A service that logs through LOGGER and reads currentRequest(), given no context. */
@Injectable()
class Shipping {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  async ship(): Promise<string | undefined> {
    const before = currentRequest()?.requestId;
    await sleep(1);
    this.logger.info({ orderId: 7 }, 'order shipped');
    return before ?? currentRequest()?.requestId;
  }
}

@Controller('ship')
class ShipController {
  constructor(private readonly shipping: Shipping) {}

  @Get()
  async show(ctx: Context) {
    return { requestId: ctx.requestId, seenByService: (await this.shipping.ship()) ?? null };
  }
}

test.each([
  ['on (the default)', {}, 'ship-1'],
  ['off (requestScope: false)', { requestScope: false }, null],
])(
  'request scope %s: what currentRequest() and a service line see, while the id is still answered and logged',
  async (_case, options, expectedSeen) => {
    const log = captureLog();
    const app = await bootApp(moduleWith({ controllers: [ShipController], providers: [Shipping] }), {
      ...options,
      logger: log.logger,
    });
    try {
      const { url } = await app.listen(0, '127.0.0.1');
      const res = await fetch(`${url}/ship`, { headers: { 'X-Request-Id': 'ship-1' } });
      expect(res.headers.get('x-request-id')).toBe('ship-1');
      expect(await res.json()).toEqual({ requestId: 'ship-1', seenByService: expectedSeen });
      const access = await log.next((entry) => entry.msg === 'request', { what: 'the access line' });
      expect(access).toMatchObject({ requestId: 'ship-1', route: '/ship', status: 200 });
      const shipped = log.entries().find((entry) => entry.msg === 'order shipped');
      expect(shipped?.requestId).toBe(expectedSeen ?? undefined);
    } finally {
      await app.close();
    }
  },
);

test('requestScope must be a boolean', async () => {
  await expect(bootApp(moduleWith({}), { requestScope: 'no' as unknown as boolean })).rejects.toThrow(
    /requestScope/,
  );
});

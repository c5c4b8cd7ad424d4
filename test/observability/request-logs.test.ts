import { setTimeout as sleep } from 'node:timers/promises';
import {
  Controller,
  Get,
  Inject,
  Injectable,
  LOGGER,
  type Application,
  type Context,
  type Logger,
} from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { HOST } from '../factories/gates';
import { captureLog, type LogCapture, type LogEntry } from '../factories/log';

/** A service that logs through LOGGER and is given no context. */
@Injectable()
class Shipping {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  async ship(orderId: string): Promise<void> {
    this.logger.info({ orderId }, 'shipping');
    await sleep(1);
    this.logger.info({ orderId }, 'after await');
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        this.logger.warn({ orderId }, 'in timeout');
        resolve();
      }, 1),
    );
  }
}

@Controller('orders')
class OrderController {
  constructor(private readonly shipping: Shipping) {}

  @Get(':id/ship')
  async ship(ctx: Context): Promise<{ shipped: true }> {
    await this.shipping.ship(ctx.param('id'));
    return { shipped: true };
  }

  @Get('boom')
  boom(): never {
    throw new Error('exploded');
  }
}

let app: Application;
let log: LogCapture;
let url: string;

beforeEach(async () => {
  log = captureLog();
  app = await bootApp(moduleWith({ controllers: [OrderController], providers: [Shipping] }), {
    logger: log.logger,
    accessLog: false,
  });
  url = (await app.listen(0, HOST)).url;
});

afterEach(() => app.close());

function linesOf(orderId: string): LogEntry[] {
  return log.entries().filter((entry) => (entry as { orderId?: string }).orderId === orderId);
}

test("a service's lines carry the request's id, with no ctx passed, across an await and a setTimeout", async () => {
  const res = await fetch(`${url}/orders/7/ship`, { headers: { 'X-Request-Id': 'ship-7' } });
  expect(res.status).toBe(200);
  expect(linesOf('7').map(({ msg, requestId }) => ({ msg, requestId }))).toEqual([
    { msg: 'shipping', requestId: 'ship-7' },
    { msg: 'after await', requestId: 'ship-7' },
    { msg: 'in timeout', requestId: 'ship-7' },
  ]);
});

test('the lines of concurrent requests each carry their own id', async () => {
  const ids = ['a', 'b', 'c', 'd'];
  await Promise.all(
    ids.map((id) => fetch(`${url}/orders/${id}/ship`, { headers: { 'X-Request-Id': `id-${id}` } })),
  );
  for (const id of ids) {
    const lines = linesOf(id);
    expect(lines).toHaveLength(3);
    expect(lines.every((entry) => entry.requestId === `id-${id}`)).toBe(true);
  }
});

test("keel's own line about a failed request carries its id", async () => {
  const res = await fetch(`${url}/orders/boom`);
  const failure = log.entries().find((entry) => entry.msg === 'request failed');
  expect(failure?.err?.message).toBe('exploded');
  expect(failure?.requestId).toBe(res.headers.get('x-request-id'));
});

test('a line logged outside any request carries no id', () => {
  app.get<Logger>(LOGGER).info({ task: 'nightly' }, 'outside');
  const [line] = log.entries().filter((entry) => entry.msg === 'outside');
  expect(line).toBeDefined();
  expect(line).not.toHaveProperty('requestId');
});

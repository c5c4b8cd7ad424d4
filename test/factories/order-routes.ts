import { Controller, Get, HttpError, type Class, type Context } from 'keel';
import { gate } from './gates';

/** The routes of {@link heldOrderRoutes}, and the gates its held route waits on. */
export interface HeldOrderRoutes {
  readonly OrderController: Class;
  /** Opened by the test: the held request is answered then. */
  readonly held: ReturnType<typeof gate>;
  /** Opened when the held request has reached its handler. */
  readonly entered: ReturnType<typeof gate>;
}

/**
 * `/orders` routes for the tests that watch requests (the access log, the metrics): `GET
 * /orders/:id` answers 200, `GET /orders/broken/:id` fails with 503, and `GET /orders/slow/:id`
 * answers only once the test opens `held`.
 */
export function heldOrderRoutes(): HeldOrderRoutes {
  const held = gate();
  const entered = gate();

  @Controller('orders')
  class OrderController {
    @Get(':id')
    show(ctx: Context) {
      return { id: ctx.param('id') };
    }

    @Get('broken/:id')
    broken(): never {
      throw new HttpError(503, 'down');
    }

    // Long enough for a client to give up, or for a scrape to see it in flight.
    @Get('slow/:id')
    async slow(ctx: Context): Promise<void> {
      entered.open();
      await held.opened;
      ctx.json(200, { late: true });
    }
  }

  return { OrderController, held, entered };
}

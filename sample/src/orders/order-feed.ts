import { EventEmitter, once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, InjectRepository, type SseEvent } from 'keel';
import { MoreThan, type Repository } from 'typeorm';
import { Order } from './order.entity';

/** How often a stream looks in the database for orders other replicas stored. */
const POLL_MS = 1000;
/** How many orders one look reads at most: a client far behind catches up a batch at a time. */
const BATCH = 50;

/**
 * New orders as they are stored, for the live list: read from the database in id order, so that a
 * stream sees the orders of every replica and a client that reconnects with the id of the last
 * order it saw gets every later one, none twice. Orders stored by this replica wake its streams at
 * once; the others' are found within a second.
 */
@Injectable()
export class OrderFeed {
  readonly #stored = new EventEmitter().setMaxListeners(0);

  constructor(@InjectRepository(Order) private readonly orders: Repository<Order>) {}

  /** Tells this replica's streams that an order was stored (once its transaction has committed). */
  announce(): void {
    this.#stored.emit('stored');
  }

  /** Every order stored after the order `afterId` (undefined: after the newest now), as events, without end. */
  async *after(afterId: number | undefined): AsyncGenerator<SseEvent<Order>> {
    let last = afterId ?? (await this.#newestId());
    for (;;) {
      const stored = await this.orders.find({
        where: { id: MoreThan(last) },
        order: { id: 'ASC' },
        take: BATCH,
      });
      for (const order of stored) {
        last = order.id;
        yield { event: 'order', id: order.id, data: order };
      }
      if (stored.length < BATCH) await this.#nextStored();
    }
  }

  async #newestId(): Promise<number> {
    const [newest] = await this.orders.find({ order: { id: 'DESC' }, take: 1 });
    return newest?.id ?? 0;
  }

  // An order stored here, or the next look for those of other replicas, whichever comes first.
  async #nextStored(): Promise<void> {
    const done = new AbortController();
    const { signal } = done;
    await Promise.race([
      once(this.#stored, 'stored', { signal }).catch(() => undefined),
      sleep(POLL_MS, undefined, { signal }).catch(() => undefined),
    ]);
    done.abort();
  }
}

import { instanceToPlain } from 'class-transformer';
import { Broadcast, Injectable, InjectRepository, Jobs } from 'keel';
import { DataSource, MoreThan, type Repository } from 'typeorm';
import { CSV_HEADER, csvRecord } from './order-csv';
import { Order } from './order.entity';
import type { OrderInput } from './order-input';
import { OrderNotFound } from './order-not-found';
import { positiveInteger } from './request-numbers';

/** One page of orders, newest first, and where it sits among the others. */
export interface OrderPage {
  readonly orders: Order[];
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
}

/** The channel of new orders, which the live list streams. */
export const ORDERS_CHANNEL = 'orders';

/** How many orders a page shows. */
export const PAGE_SIZE = 10;

/** How many orders the CSV export reads at a time. */
const EXPORT_BATCH = 500;

/** Reads and writes orders; both the HTML and the JSON controller go through it. */
@Injectable()
export class OrderService {
  constructor(
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    private readonly jobs: Jobs,
    private readonly dataSource: DataSource,
    private readonly broadcast: Broadcast,
  ) {}

  async page(page: number): Promise<OrderPage> {
    const [orders, total] = await this.orders.findAndCount({
      order: { id: 'DESC' },
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    });
    return { orders, page, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)), total };
  }

  /**
   * Every order as CSV, oldest first, read a batch at a time as the consumer pulls: the export of a
   * million orders holds one batch in memory, and stops reading when its client leaves.
   */
  async *csvLines(): AsyncGenerator<string> {
    yield CSV_HEADER;
    for (let after = 0; ;) {
      const batch = await this.orders.find({
        where: { id: MoreThan(after) },
        order: { id: 'ASC' },
        take: EXPORT_BATCH,
      });
      if (batch.length === 0) return;
      yield batch.map(csvRecord).join('');
      after = (batch.at(-1) as Order).id;
    }
  }

  /** The order whose id is `id` as the path gives it; OrderNotFound for none, or text that is no order id. */
  async get(id: string): Promise<Order> {
    const key = positiveInteger(id);
    const order = key === undefined ? null : await this.orders.findOneBy({ id: key });
    if (!order) throw new OrderNotFound(id);
    return order;
  }

  /**
   * Stores the order and its confirmation, which one replica sends once, in one transaction: an
   * order is never kept without its confirmation, nor a confirmation without its order. `via` says
   * where it was entered, in the order's internal note, which no answer shows.
   */
  async create(input: OrderInput, via: 'the order form' | 'the JSON API'): Promise<Order> {
    const stored = await this.dataSource.transaction(async (manager) => {
      const order = await manager.save(
        manager.create(Order, { ...input, internalNote: `entered through ${via}` }),
      );
      await this.jobs.enqueue(
        'order-confirmation',
        { orderId: order.id },
        { singletonKey: `order-${order.id}`, transaction: manager },
      );
      return order;
    });
    // Once committed: every replica's live list shows it, and a browser that reconnects gets it.
    await this.broadcast.publish(ORDERS_CHANNEL, 'order', instanceToPlain(stored));
    return stored;
  }

  /** `order`, as found, with the fields `input` has written over it. */
  update(order: Order, input: Partial<OrderInput>): Promise<Order> {
    return this.orders.save(this.orders.merge(order, input));
  }

  /** Deletes order `id`; OrderNotFound when there was none. */
  async remove(id: string): Promise<void> {
    const key = positiveInteger(id);
    const { affected } = key === undefined ? { affected: 0 } : await this.orders.delete({ id: key });
    if (!affected) throw new OrderNotFound(id);
  }
}

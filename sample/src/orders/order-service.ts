import { Injectable, InjectRepository } from 'keel';
import type { Repository } from 'typeorm';
import { Order } from './order.entity';
import type { OrderInput } from './order-input';
import { positiveInteger } from './request-numbers';

/** One page of orders, newest first, and where it sits among the others. */
export interface OrderPage {
  readonly orders: Order[];
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
}

/** How many orders a page shows. */
export const PAGE_SIZE = 10;

/** Reads and writes orders; both the HTML and the JSON controller go through it. */
@Injectable()
export class OrderService {
  constructor(@InjectRepository(Order) private readonly orders: Repository<Order>) {}

  async page(page: number): Promise<OrderPage> {
    const [orders, total] = await this.orders.findAndCount({
      order: { id: 'DESC' },
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    });
    return { orders, page, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)), total };
  }

  /** The order whose id is `id` as the path gives it; none for text that is no order id at all. */
  async find(id: string): Promise<Order | null> {
    const key = positiveInteger(id);
    return key === undefined ? null : this.orders.findOneBy({ id: key });
  }

  create(input: OrderInput): Promise<Order> {
    return this.orders.save(this.orders.create(input));
  }

  /** `order`, as found, with `input` written over it. */
  update(order: Order, input: OrderInput): Promise<Order> {
    return this.orders.save(this.orders.merge(order, input));
  }

  /** True when order `id` existed and is gone. */
  async remove(id: string): Promise<boolean> {
    const key = positiveInteger(id);
    if (key === undefined) return false;
    const { affected } = await this.orders.delete({ id: key });
    return (affected ?? 0) > 0;
  }
}

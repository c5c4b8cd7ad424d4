import { Injectable, InjectRepository } from 'keel';
import type { Repository } from 'typeorm';
import { Order } from './order.entity';
import type { OrderInput } from './order-input';

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

  find(id: number): Promise<Order | null> {
    return this.orders.findOneBy({ id });
  }

  create(input: OrderInput): Promise<Order> {
    return this.orders.save(this.orders.create(input));
  }

  /** The updated order, or null when there is no order `id`. */
  async update(id: number, input: OrderInput): Promise<Order | null> {
    const order = await this.find(id);
    if (!order) return null;
    return this.orders.save(this.orders.merge(order, input));
  }

  /** True when order `id` existed and is gone. */
  async remove(id: number): Promise<boolean> {
    const { affected } = await this.orders.delete({ id });
    return (affected ?? 0) > 0;
  }
}

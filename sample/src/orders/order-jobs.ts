import { Cron, Inject, InjectRepository, Injectable, Job, LOGGER, type Logger } from 'keel';
import { MoreThan, type Repository } from 'typeorm';
import { Order } from './order.entity';

/** What the confirmation job of an order is given. */
export interface OrderConfirmation {
  readonly orderId: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The work that follows an order, off the request: its confirmation (here, a log line where a real
 * shop would send a mail), and a summary of the day's orders every morning, on one replica.
 */
@Injectable()
export class OrderJobs {
  constructor(
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Job('order-confirmation', { retries: 3 })
  async confirm({ orderId }: OrderConfirmation): Promise<void> {
    const order = await this.orders.findOneBy({ id: orderId });
    // Deleted before its confirmation went out: there is no one left to tell.
    if (!order) return;
    this.logger.info({ orderId, customer: order.customer }, 'order confirmation sent');
  }

  @Cron('0 6 * * *')
  async dailySummary(): Promise<void> {
    const orders = await this.orders.countBy({ createdAt: MoreThan(new Date(Date.now() - DAY_MS)) });
    this.logger.info({ orders }, 'orders of the last day');
  }
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import { readServerEnvironment } from './server-environment';

/** A row of the seeded orders table behind `GET /api/orders/:id`: the same entity in every server. */
@Entity({ name: readServerEnvironment().ordersTable })
export class OrderRecord {
  @PrimaryColumn('integer')
  id!: number;

  @Column('text')
  item!: string;

  @Column('integer')
  quantity!: number;

  @Column('text')
  email!: string;
}

/** The row the runner seeds for `id`: what every server must answer for it. */
export function seededOrder(id: number): OrderRecord {
  return { id, item: `item-${id}`, quantity: (id % 1000) + 1, email: `customer${id}@example.com` };
}

/** The key `GET /api/orders/:id` looks up, or `undefined` for a path parameter that is no row id. */
export function orderRecordId(raw: string): number | undefined {
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The answer every server gives for an id with no row. */
export const ORDER_NOT_FOUND = { error: 'order not found' };

import { Exclude } from 'class-transformer';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An order as the `orders` table keeps it (created by the CreateOrders migration, its internal note
 * added by AddOrderInternalNote). The internal note is `@Exclude()`d: keel leaves it out of every
 * answer, JSON, page or event, wherever an order goes.
 */
@Entity({ name: 'orders' })
export class Order {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 80 })
  customer!: string;

  @Column({ type: 'varchar', length: 80 })
  product!: string;

  @Column({ type: 'integer' })
  quantity!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** For the staff only: where the order was entered. */
  @Exclude()
  @Column({ name: 'internal_note', type: 'varchar', length: 200, default: '' })
  internalNote!: string;
}

import { IsOptional } from 'class-validator';
import { PartialType } from 'keel';
import { Characters, InRange, IsText, IsWholeNumber, WithoutNul } from './order-rules';

// The column lengths of the orders table (varchar(80)). Rules run, and report, from the type rule
// up: a field gets the message of its first failing rule first.
const NAME_LENGTH = 80;
// PostgreSQL's integer: no page number past it is ever asked of the database.
const MAX_PAGE = 2_147_483_647;

/** What a client may set on an order, from the HTML form or a JSON body. */
export class OrderInput {
  @WithoutNul('customer')
  @Characters('customer', 1, NAME_LENGTH)
  @IsText('customer')
  customer!: string;

  @WithoutNul('product')
  @Characters('product', 1, NAME_LENGTH)
  @IsText('product')
  product!: string;

  @InRange('quantity', 1, 1000)
  @IsWholeNumber('quantity')
  quantity!: number;
}

/** What a PATCH may change: any of the fields of {@link OrderInput}, each checked only when sent. */
export class OrderChanges extends PartialType(OrderInput) {}

/** Which page of orders the JSON API lists (`?page=2`); the first when none is asked for. */
export class OrderPageQuery {
  @IsOptional()
  @InRange('page', 1, MAX_PAGE)
  @IsWholeNumber('page')
  page?: number;
}

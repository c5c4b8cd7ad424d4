import { Characters, InRange, IsText, IsWholeNumber, WithoutNul } from './order-rules';

// The column lengths of the orders table (varchar(80)). Rules run, and report, from the type rule
// up: a field gets the message of its first failing rule first.
const NAME_LENGTH = 80;

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

import { IsInt, IsString, Length, Max, Min, NotContains } from 'class-validator';

// PostgreSQL's text cannot hold a NUL character: refused here as invalid input, never a failed insert.
const NUL = '\u0000';

/** What a client may set on an order, from the HTML form or a JSON body. */
export class OrderInput {
  @IsString()
  @Length(1, 80, { message: 'customer must be 1 to 80 characters' })
  @NotContains(NUL, { message: 'customer must not contain a NUL character' })
  customer!: string;

  @IsString()
  @Length(1, 80, { message: 'product must be 1 to 80 characters' })
  @NotContains(NUL, { message: 'product must not contain a NUL character' })
  product!: string;

  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(1000, { message: 'quantity must be at most 1000' })
  quantity!: number;
}

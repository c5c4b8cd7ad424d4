import { IsInt, IsString, Length, Max, Min } from 'class-validator';

/** What a client may set on an order, from the HTML form or a JSON body. */
export class OrderInput {
  @IsString()
  @Length(1, 80, { message: 'customer must be 1 to 80 characters' })
  customer!: string;

  @IsString()
  @Length(1, 80, { message: 'product must be 1 to 80 characters' })
  product!: string;

  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(1000, { message: 'quantity must be at most 1000' })
  quantity!: number;
}

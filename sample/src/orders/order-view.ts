import { Type } from 'class-transformer';
import { IsDateString, IsInt, IsString, Length, Max, Min, ValidateNested } from 'class-validator';

/** An order as the JSON API answers with it: what its OpenAPI document shows. */
export class OrderView {
  @IsInt() @Min(1) id!: number;
  @IsString() @Length(1, 80) customer!: string;
  @IsString() @Length(1, 80) product!: string;
  @IsInt() @Min(1) @Max(1000) quantity!: number;
  @IsDateString() createdAt!: string;
}

/** A page of orders, newest first, as `GET /api/orders` answers with it. */
export class OrderPageView {
  @ValidateNested({ each: true }) @Type(() => OrderView) data!: OrderView[];
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) pageCount!: number;
  @IsInt() @Min(0) total!: number;
}

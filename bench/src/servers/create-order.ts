import { IsEmail, IsInt, IsString, Length, Max, Min } from 'class-validator';

/** The body of `POST /api/orders`, the same class in every server under test. */
export class CreateOrder {
  @IsString()
  @Length(1, 80)
  item!: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  quantity!: number;

  @IsEmail()
  email!: string;
}

/** The order every server answers `POST /api/orders` with. */
export function storedOrder(input: CreateOrder): CreateOrder & { id: string } {
  return { id: '1', ...input };
}

/** The order every server answers `GET /orders/:id` with. */
export function shownOrder(id: string): { id: string; status: string } {
  return { id, status: 'open' };
}

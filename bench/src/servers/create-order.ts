import { plainToInstance } from 'class-transformer';
import { IsEmail, IsInt, IsString, Length, Max, Min, validate } from 'class-validator';

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

/**
 * What the hand-written servers answer `POST /api/orders` with, after the same class-validator
 * rules keel and NestJS apply: 201 and the order, or 422 and the failing fields.
 */
export async function storeOrder(body: unknown): Promise<{ status: number; body: object }> {
  const input = plainToInstance(CreateOrder, body as object);
  const errors = await validate(input);
  if (errors.length > 0)
    return { status: 422, body: { error: 'validation failed', fields: errors.map((e) => e.property) } };
  return { status: 201, body: storedOrder(input) };
}

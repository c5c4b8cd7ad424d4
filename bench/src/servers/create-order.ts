import { IsEmail, IsInt, IsString, Length, Max, Min } from 'class-validator';

/**
 * The body of `POST /api/orders` as keel and NestJS users declare it: a class-validator class. Fastify
 * states the same rules as a JSON schema on its route, Express and node:http check them by hand.
 */
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

/** The order every server answers `POST /api/orders` with: the three fields, nothing else of the body. */
export function storedOrder(input: CreateOrder): CreateOrder & { id: string } {
  return { id: '1', item: input.item, quantity: input.quantity, email: input.email };
}

/** The order every server answers `GET /orders/:id` with. */
export function shownOrder(id: string): { id: string; status: string } {
  return { id, status: 'open' };
}

// What a hand-written check of an address looks like: one @, something on each side, a dot after it.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isWholeNumberBetween(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** The fields of `body` that break `CreateOrder`'s rules, checked by hand as Express users write it. */
function invalidFields(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return ['item', 'quantity', 'email'];
  const { item, quantity, email } = body as Record<string, unknown>;
  const fields: string[] = [];
  if (typeof item !== 'string' || item.length < 1 || item.length > 80) fields.push('item');
  if (!isWholeNumberBetween(quantity, 1, 1000)) fields.push('quantity');
  if (typeof email !== 'string' || !EMAIL.test(email)) fields.push('email');
  return fields;
}

/**
 * What the hand-written servers (Express, node:http) answer `POST /api/orders` with: 201 and the order,
 * or 422 and the failing fields.
 */
export function storeOrder(body: unknown): { status: number; body: object } {
  const fields = invalidFields(body);
  if (fields.length > 0) return { status: 422, body: { error: 'validation failed', fields } };
  return { status: 201, body: storedOrder(body as CreateOrder) };
}

import type { Class } from 'keel';
import { compiledBinding } from '../../src/binding/compiled-binding';
import { bindInterpreted } from '../../src/binding/interpreted-binding';
import { OrderInput } from '../../sample/src/orders/order-input';
import { Extras, Order, OrderChanges, shape } from '../factories/validation-classes';
import { seededRandom } from '../factories/seeded-random';

const ATOMS = [
  ...[undefined, null, '', 'a', 'tea', 'ada@example.com', 'ada@', 'x'.repeat(81), 'A\u0000a', 'T-1', '0150'],
  ...[0, 1, 2, 3, -1, 2.5, 9.999, 1000, 1001, 5000, true, false, 'true', '3', 'post', 'large', '2026-12-01'],
  ...['yes', 'https://example.com/a', 'example', '2b1e4d0c-8f6a-4b8e-9c1d-3f5a7b9c2d4e', 'ftp://x'],
];
const FIELDS = [
  ...['item', 'quantity', 'email', 'price', 'gift', 'delivery', 'size', 'coupon', 'deliverBy', 'address'],
  ...['lines', 'tags', 'message', 'lucky', 'confirm', 'customer', 'product', 'junk', 'sku', 'city'],
  ...['id', 'site', 'weight', 'agreed', 'codes', 'meta', 'internal', 'scores'],
];
const VALID_ORDER = { item: 'tea', quantity: 2, email: 'ada@example.com', confirm: true };
const VALID_INPUT = { customer: 'Ada', product: 'Tea', quantity: 3 };

function randomValue(random: () => number, depth: number): unknown {
  const roll = random();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  if (depth > 2 || roll < 0.6) return pick(ATOMS);
  const size = Math.floor(random() * 4);
  if (roll < 0.8) return Array.from({ length: size }, () => randomValue(random, depth + 1));
  return Object.fromEntries(
    Array.from({ length: size }, () => [pick(FIELDS), randomValue(random, depth + 1)] as const),
  );
}

// Mostly a valid body with a field or two changed, so that valid bodies are compared too.
function randomBody(random: () => number, valid: object): Record<string, unknown> {
  const body: Record<string, unknown> = random() < 0.7 ? { ...valid } : {};
  for (const field of FIELDS) if (random() < 0.12) body[field] = randomValue(random, 0);
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}

// Each binding gets a body of its own, as a parser makes it: binding changes what it is given.
function copyOf(body: object): object {
  return JSON.parse(JSON.stringify(body)) as object;
}

async function outcomes(type: Class<object>, body: object): Promise<[string, string]> {
  const interpreted = await bindInterpreted(type, copyOf(body));
  const compiled = compiledBinding(type)?.bind(copyOf(body));
  if (!compiled) throw new Error(`${type.name} is not compiled`);
  const described = ({ value, fields }: { value: object; fields: object | undefined }) =>
    JSON.stringify(fields ? { fields } : { value: shape(value) });
  return [described(compiled), described(interpreted)];
}

test.each([
  ['Order', Order, VALID_ORDER],
  ['OrderChanges', OrderChanges, VALID_ORDER],
  ['OrderInput', OrderInput, VALID_INPUT],
  ['Extras', Extras, {}],
] as [string, Class<object>, object][])(
  '2,000 random bodies bind into %s as class-transformer and class-validator bind them',
  async (_name, type, valid) => {
    const random = seededRandom(type.name.length * 7919);
    let validCount = 0;
    for (let n = 0; n < 2000; n++) {
      const body = randomBody(random, valid);
      const [compiled, interpreted] = await outcomes(type, body);
      expect({ body, compiled }).toEqual({ body, compiled: interpreted });
      if (interpreted.startsWith('{"value"')) validCount++;
    }
    expect(validCount).toBeGreaterThan(100);
  },
);

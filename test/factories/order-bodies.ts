import type request from 'supertest';

// Bodies sent to the validation tests' `Order` (and a few other classes): what is sent, to which
// class, how, and the status class-validator answers with.
export const order = { item: 'tea', quantity: 2, email: 'ada@example.com', confirm: true };
export const line = { sku: 'T-1', count: 1 };
export const full = {
  ...order,
  price: 9.99,
  gift: true,
  delivery: 'post',
  size: 'large',
  coupon: 'SPRING',
  deliverBy: '2026-12-01T10:00:00Z',
  address: { city: 'Oslo', zip: '0150' },
  lines: [line, { sku: 'C-2', count: 99 }],
  tags: ['green', 'loose'],
  message: 'Happy birthday',
  lucky: 4,
};

export type Send = (test: request.Test) => request.Test;
export const json =
  (body: unknown): Send =>
  (test) =>
    test.send(body as object);
export const raw =
  (text: string): Send =>
  (test) =>
    test.set('Content-Type', 'application/json').send(text);
export const form =
  (text: string): Send =>
  (test) =>
    test.type('form').send(text);

// [what is sent, to which class, how, the status both paths must answer with: 201 for a POST whose body is valid]
export const BODIES: readonly [string, string, Send, number][] = [
  ['a valid order', 'order', json(order), 201],
  ['a valid order with every optional field', 'order', json(full), 201],
  ['no item', 'order', json({ ...order, item: undefined }), 422],
  ['an empty item', 'order', json({ ...order, item: '' }), 422],
  ['an item past 80 characters', 'order', json({ ...order, item: 'x'.repeat(81) }), 422],
  ['a number for the item', 'order', json({ ...order, item: 5 }), 422],
  ['a string for the quantity in JSON', 'order', json({ ...order, quantity: '3' }), 422],
  ['a quantity under the minimum', 'order', json({ ...order, quantity: 0 }), 422],
  ['a quantity over the maximum', 'order', json({ ...order, quantity: 1001 }), 422],
  ['a fractional quantity', 'order', json({ ...order, quantity: 2.5 }), 422],
  ['a null quantity', 'order', json({ ...order, quantity: null }), 422],
  ['an invalid email', 'order', json({ ...order, email: 'ada@' }), 422],
  ['no email', 'order', json({ ...order, email: undefined }), 422],
  ['a price with three decimals', 'order', json({ ...order, price: 9.999 }), 422],
  ['a string price', 'order', json({ ...order, price: '9.99' }), 422],
  ['a string for a boolean', 'order', json({ ...order, gift: 'yes' }), 422],
  ['a value outside IsIn', 'order', json({ ...order, delivery: 'drone' }), 422],
  ['a value outside the enum', 'order', json({ ...order, size: 'medium' }), 422],
  ['a coupon too short', 'order', json({ ...order, coupon: 'a' }), 422],
  ['a number for a string with lengths', 'order', json({ ...order, coupon: 12 }), 422],
  ['a date that is no ISO 8601 string', 'order', json({ ...order, deliverBy: 'tomorrow' }), 422],
  ['a null optional object', 'order', json({ ...order, address: null }), 201],
  ['a string where a nested object is expected', 'order', json({ ...order, address: 'Oslo' }), 422],
  ['a nested object missing its field', 'order', json({ ...order, address: {} }), 422],
  ['a nested object with a bad field', 'order', json({ ...order, address: { city: 7, zip: 'abc' } }), 422],
  [
    'a nested object with extra fields',
    'order',
    json({ ...order, address: { city: 'Oslo', admin: true } }),
    201,
  ],
  [
    'an array where a nested object is expected',
    'order',
    json({ ...order, address: [{ city: 'Oslo' }, 'x'] }),
    422,
  ],
  ['an empty list under ArrayMinSize', 'order', json({ ...order, lines: [] }), 422],
  ['a list over ArrayMaxSize', 'order', json({ ...order, lines: [line, line, line, line] }), 422],
  [
    'list members with bad and missing fields',
    'order',
    json({ ...order, lines: [line, { count: 0 }, {}] }),
    422,
  ],
  ['a string where a list is expected', 'order', json({ ...order, lines: 'T-1' }), 422],
  ['a null list member', 'order', json({ ...order, lines: [null, line] }), 422],
  ['an object where a list is expected', 'order', json({ ...order, lines: line }), 422],
  ['nested lists', 'order', json({ ...order, lines: [[line, { sku: '' }]] }), 422],
  ['a list member of the wrong type under each', 'order', json({ ...order, tags: ['green', 2] }), 422],
  ['a single string under each', 'order', json({ ...order, tags: 'green' }), 201],
  ['fields the class does not declare', 'order', json({ ...order, isAdmin: true, role: 'root' }), 201],
  [
    '__proto__ and constructor keys',
    'order',
    raw(
      `{"item":"tea","quantity":2,"email":"ada@example.com","confirm":true,"__proto__":{"x":1},"constructor":{"prototype":{"x":1}},"toString":"x"}`,
    ),
    201,
  ],
  ['a JSON null body', 'order', raw('null'), 400],
  ['a JSON array body', 'order', json([order]), 422],
  ['a JSON string body', 'order', raw('"order"'), 400],
  ['a JSON number body', 'order', raw('42'), 400],
  ['no body at all', 'order', (test) => test, 422],
  ['a message required by ValidateIf', 'order', json({ ...order, gift: true }), 422],
  ['a message ValidateIf skips', 'order', json({ ...order, gift: false, message: 5 }), 201],
  ['an application rule broken, its message naming the value', 'order', json({ ...order, lucky: 3 }), 422],
  ['an IsDefined with its own message', 'order', json({ ...order, confirm: undefined }), 422],
  [
    'every field wrong at once',
    'order',
    json({ item: 1, quantity: 'x', email: null, lines: [{}], lucky: '2' }),
    422,
  ],
  [
    'a form with numbers and booleans as strings',
    'order',
    form('item=tea&quantity=3&email=ada%40example.com&confirm=on&price=9.5&gift=false'),
    201,
  ],
  [
    'a form number that is no number',
    'order',
    form('item=tea&quantity=three&email=ada%40example.com&confirm=true'),
    422,
  ],
  ['an empty form number', 'order', form('item=tea&quantity=&email=ada%40example.com&confirm=true'), 422],
  [
    'a form number in exponent notation',
    'order',
    form('item=tea&quantity=1e3&email=ada%40example.com&confirm=true'),
    422,
  ],
  [
    'a repeated form field',
    'order',
    form('item=tea&item=coffee&quantity=1&email=ada%40example.com&confirm=true'),
    422,
  ],
  [
    'a multipart form',
    'order',
    (test) =>
      test
        .field('item', 'tea')
        .field('quantity', '4')
        .field('email', 'ada@example.com')
        .field('confirm', 'yes'),
    201,
  ],
  ['a rule of the application named as one of class-validator’s', 'contact', json({ contact: 'ada' }), 201],
  ['that rule broken', 'contact', json({ contact: 'a' }), 422],
  ['nothing for a class with defaults', 'defaults', json({}), 201],
  ['a default overridden badly', 'defaults', json({ size: 0, note: 'sent' }), 422],
  [
    'a default overridden, a field without rules sent',
    'defaults',
    json({ size: 3, note: 'sent', tag: 'x' }),
    201,
  ],
  ['a subclass body breaking inherited and own rules', 'dog', json({ name: 'R', isGood: 'yes' }), 422],
  ['a valid subclass body', 'dog', json({ name: 'Rex', isGood: true }), 201],
  ['an empty change', 'changes', json({}), 201],
  ['a change that breaks a rule', 'changes', json({ quantity: 0 }), 422],
  ['a change to null', 'changes', json({ item: null, address: null }), 422],
  ['a change of a nested object', 'changes', json({ address: { city: '' } }), 422],
  ['a valid order of the sample', 'sample', json({ customer: 'Ada', product: 'Tea', quantity: 3 }), 201],
  ['a sample order without fields', 'sample', json({}), 422],
  [
    'a sample order with a NUL and too many',
    'sample',
    json({ customer: 'A\u0000a', product: 'x'.repeat(81), quantity: 5000 }),
    422,
  ],
  ['a sample order of the wrong types', 'sample', json({ customer: 1, product: [], quantity: '3' }), 422],
];

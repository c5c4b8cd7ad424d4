import { expect, test } from '@jest/globals';
import { sampleAuthorization, useSample } from '../factories/sample';
import { isPostgresServer, postgresUrl } from '../factories/test-databases';

// The sample's CSV export over real HTTP: every order, streamed, without the internal note, with
// nothing a spreadsheet would run as a formula.
const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });

async function create(customer: string): Promise<number> {
  const res = await fetch(`${sample().url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await sampleAuthorization(sample().url)) },
    body: JSON.stringify({ customer, product: 'Lamp, brass', quantity: 2 }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

test('GET /orders/export.csv streams every order, oldest first, quoted where it must be, as an attachment', async () => {
  const ids = [
    await create('Ada "the Countess"'),
    await create('=HYPERLINK("http://evil.example","click")'),
    ...(await Promise.all(Array.from({ length: 3 }, (_, n) => create(`Customer ${n}`)))),
  ];
  const res = await fetch(`${sample().url}/orders/export.csv`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders.csv"');
  // Streamed as it is read: no length known up front.
  expect(res.headers.get('content-length')).toBeNull();
  expect(res.headers.get('transfer-encoding')).toBe('chunked');

  const text = await res.text();
  const records = text.split('\r\n');
  expect(records[0]).toBe('id,customer,product,quantity,createdAt');
  expect(records.at(-1)).toBe('');
  const rows = records.slice(1, -1);
  expect(rows.map((row) => Number(row.split(',')[0]))).toEqual([...ids].sort((a, b) => a - b));
  expect(rows[0]).toMatch(/^\d+,"Ada ""the Countess""","Lamp, brass",2,\d{4}-\d\d-\d\dT[\d:.]+Z$/);
  // A formula stays text: prefixed with ', and quoted for its comma and quotes.
  expect(rows[1]).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",`);
  // The internal note (where the order was entered) is in no column.
  expect(text).not.toContain('entered through');
});

test('the orders index links the export', async () => {
  await create('Grace');
  const page = await (await fetch(`${sample().url}/orders`)).text();
  expect(page).toContain('href="/orders/export.csv"');
});

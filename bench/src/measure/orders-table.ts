import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { seededOrder } from '../servers/order-record';

const ROW_COUNT = 1000;

/** The seeded table behind `GET /api/orders/:id`, created for one run and dropped after it. */
export interface OrdersTable {
  readonly name: string;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a table under a name no other run uses (runs of other branches may share the database) and
 * fills it with `seededOrder(1..1000)`, the rows every server's answer is checked against.
 */
export async function createOrdersTable(url: string): Promise<OrdersTable> {
  const name = `bench_orders_${process.pid}_${randomBytes(4).toString('hex')}`;
  const rows = Array.from({ length: ROW_COUNT }, (_, index) => seededOrder(index + 1));
  await withClient(url, async (client) => {
    await client.query(
      `CREATE TABLE ${name} (id integer PRIMARY KEY, item text NOT NULL, quantity integer NOT NULL, email text NOT NULL)`,
    );
    await client.query(
      `INSERT INTO ${name} (id, item, quantity, email) SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[])`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.item),
        rows.map((row) => row.quantity),
        rows.map((row) => row.email),
      ],
    );
  });
  return {
    name,
    drop: () =>
      withClient(url, (client) => client.query(`DROP TABLE IF EXISTS ${name}`)).then(() => undefined),
  };
}

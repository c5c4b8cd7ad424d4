import type { Application } from 'keel';
import { createConnection, type Connection } from 'mysql2/promise';
import { Client } from 'pg';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { bootApp, listenerOf, moduleWith } from '../factories/app';
import { describeNeeding } from '../factories/requirements';
import { mariadbMissing, mariadbUrl, postgresUrl } from '../factories/test-databases';

// A statement per route, each failing on the database for the client's input; what the client sees.
const CASES = [
  { route: 'too-long', status: 422, error: 'value too long' },
  { route: 'duplicate', status: 409, error: 'value already exists: constraint "code_unique"' },
  { route: 'reference', status: 409, error: 'value breaks a foreign key: constraint "customer_fk"' },
  { route: 'required', status: 422, error: 'customer: value required', fields: ['customer'] },
  { route: 'invalid-number', status: 400, error: 'invalid input value' },
] as const;

/** Boots an application whose routes each run one failing statement through `query`. */
async function appFailingWith(
  statements: Record<(typeof CASES)[number]['route'], string>,
  query: (sql: string) => Promise<unknown>,
): Promise<Application> {
  const app = await bootApp(moduleWith({}));
  for (const [route, sql] of Object.entries(statements)) {
    app.router.post(`/${route}`, async () => query(sql));
  }
  return app;
}

// MariaDB names the column of a value too long; PostgreSQL does not.
const NAMED_TOO_LONG = { error: 'customer: value too long', fields: ['customer'] };

function expectAnswers(
  app: () => Application,
  tooLong: { error: string; fields?: string[] } = CASES[0],
): void {
  test.each(CASES)('$route answers $status, naming what failed and showing no SQL', async (c) => {
    const expected = c.route === 'too-long' ? { ...c, ...tooLong } : c;
    const res = await request(listenerOf(app())).post(`/${c.route}`);
    expect(res.status).toBe(c.status);
    expect(res.body.error).toBe(expected.error);
    if ('fields' in expected) expect(Object.keys(res.body.fields as object)).toEqual(expected.fields);
    expect(JSON.stringify(res.body)).not.toMatch(/insert|select|values|ten|abcdefgh/i);
  });
}

describe('PostgreSQL input errors', () => {
  let client: Client;
  let app: Application;

  beforeAll(async () => {
    client = new Client({ connectionString: postgresUrl() });
    await client.connect();
    await client.query(`
      CREATE TEMP TABLE customers_t (id int PRIMARY KEY);
      CREATE TEMP TABLE orders_t (
        id int, customer varchar(5) NOT NULL,
        code text CONSTRAINT code_unique UNIQUE,
        customer_id int CONSTRAINT customer_fk REFERENCES customers_t (id)
      );
      INSERT INTO orders_t (customer, code) VALUES ('a', 'x');`);
    app = await appFailingWith(
      {
        'too-long': `INSERT INTO orders_t (customer) VALUES ('a${'\uFE0F'.repeat(5)}')`,
        duplicate: `INSERT INTO orders_t (customer, code) VALUES ('b', 'x')`,
        reference: `INSERT INTO orders_t (customer, customer_id) VALUES ('c', 42)`,
        required: `INSERT INTO orders_t (customer) VALUES (NULL)`,
        'invalid-number': `SELECT 'ten'::int`,
      },
      (sql) => client.query(sql),
    );
  });
  afterAll(() => client.end());

  expectAnswers(() => app);

  test("an error wrapped in TypeORM's QueryFailedError is read through it", async () => {
    const sql = `INSERT INTO orders_t (customer, code) VALUES ('b', 'x')`;
    app.router.post('/wrapped', async () =>
      client.query(sql).catch((error: Error) => {
        throw new QueryFailedError(sql, [], error);
      }),
    );
    const res = await request(listenerOf(app)).post('/wrapped');
    expect([res.status, res.body]).toEqual([
      409,
      { error: 'value already exists: constraint "code_unique"' },
    ]);
  });
});

const mariadb = mariadbUrl();

describeNeeding(mariadbMissing(), 'MariaDB input errors', () => {
  let connection: Connection;
  let app: Application;

  beforeAll(async () => {
    connection = await createConnection({ uri: mariadb, multipleStatements: true });
    await connection.query(`
      CREATE TEMPORARY TABLE customers_t (id int PRIMARY KEY) ENGINE=InnoDB;
      CREATE TABLE IF NOT EXISTS customers_fk_t (id int PRIMARY KEY) ENGINE=InnoDB;
      CREATE TEMPORARY TABLE orders_t (
        id int, customer varchar(5) NOT NULL,
        code varchar(10), CONSTRAINT code_unique UNIQUE (code)
      ) ENGINE=InnoDB;
      CREATE TABLE IF NOT EXISTS orders_fk_t (
        customer_id int, CONSTRAINT customer_fk FOREIGN KEY (customer_id) REFERENCES customers_fk_t (id)
      ) ENGINE=InnoDB;
      SET SESSION sql_mode = 'STRICT_ALL_TABLES';
      INSERT INTO orders_t (customer, code) VALUES ('a', 'x');`);
    app = await appFailingWith(
      {
        'too-long': `INSERT INTO orders_t (customer) VALUES ('abcdefgh')`,
        duplicate: `INSERT INTO orders_t (customer, code) VALUES ('b', 'x')`,
        reference: `INSERT INTO orders_fk_t (customer_id) VALUES (42)`,
        required: `INSERT INTO orders_t (customer) VALUES (NULL)`,
        'invalid-number': `INSERT INTO orders_t (id, customer) VALUES ('ten', 'd')`,
      },
      (sql) => connection.query(sql),
    );
  });
  afterAll(async () => {
    await connection.query('DROP TABLE IF EXISTS orders_fk_t, customers_fk_t');
    await connection.end();
  });

  expectAnswers(() => app, NAMED_TOO_LONG);
});

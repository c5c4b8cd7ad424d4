import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { freshSchema } from '../factories/test-database-app';

function urlOf(app: TestingApplication): string {
  return (app.get(DataSource).options as { url: string }).url;
}

async function notes(app: TestingApplication): Promise<string[]> {
  const res = await app.inject('/notes');
  expect(res.statusCode).toBe(200);
  return (res.json() as { body: string }[]).map((note) => note.body);
}

async function connects(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  return client.connect().then(
    async () => {
      await client.end();
      return true;
    },
    () => false,
  );
}

test("'memory://': two applications booted at once get in-memory databases of their own, cloned from one migrated template", async () => {
  const schema = freshSchema();
  const boot = () =>
    createTestingApplication(schema.module).withTestDatabase({ url: 'memory://' }).boot({ logger: false });
  const [first, second] = await Promise.all([boot(), boot()]);
  try {
    expect(schema.migrationRuns()).toBe(1);
    expect(urlOf(first)).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(urlOf(first)).not.toBe(urlOf(second));
    const added = await first.inject({ method: 'POST', url: '/notes', payload: { body: 'first only' } });
    expect(added.statusCode).toBe(201);

    expect(await notes(first)).toEqual(['first only']);
    expect(await notes(second)).toEqual([]);
    const recorded = await second.get(DataSource).query('SELECT name FROM migrations');
    expect(recorded).toEqual([{ name: schema.migrationName }]);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
  // Closed with its application: nothing answers where it was.
  expect(await connects(urlOf(first))).toBe(false);
}, 120_000);

test('without a url or DATABASE_URL, the database is the embedded one in memory', async () => {
  const given = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  let app: TestingApplication | undefined;
  try {
    app = await createTestingApplication(freshSchema().module).withTestDatabase().boot({ logger: false });
  } finally {
    process.env.DATABASE_URL = given;
  }
  try {
    const [row] = (await app.get(DataSource).query('SELECT version() AS version')) as { version: string }[];
    // PGlite reports itself as PostgreSQL compiled to WebAssembly.
    expect(row?.version).toMatch(/wasm|emscripten/i);
    expect(await notes(app)).toEqual([]);
  } finally {
    await app.close();
  }
}, 120_000);

import {
  DatabaseModule,
  HttpError,
  Injectable,
  Job,
  Jobs,
  JobsModule,
  Module,
  createApplication,
  type Application,
  type Context,
} from 'keel';
import { DataSource } from 'typeorm';
import { eventually } from '../factories/eventually';
import { captureLog } from '../factories/log';
import * as jobsTest from '../factories/jobs-app';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresUrl } from '../factories/test-databases';

// What the handler was given, in this process.
const confirmed: unknown[] = [];

@Injectable()
class Confirmations {
  @Job('confirm-order')
  confirm(data: unknown) {
    confirmed.push(data);
  }
}

const TABLE = `tx_orders_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

/**
 * POST /orders?customer=…&note=…: stores an order and enqueues its confirmation (the note in its data
 * alone) in one transaction; `then=conflict` fails the transaction after the enqueue, with a 409.
 */
function serveOrders(app: Application): void {
  app.router.post('/orders', async (ctx: Context) => {
    const customer = ctx.query('customer', '');
    const id = await app.get(DataSource).transaction(async (manager) => {
      const [row] = (await manager.query(`INSERT INTO ${TABLE} (customer) VALUES ($1) RETURNING id`, [
        customer,
      ])) as { id: number }[];
      const note = ctx.query('note', '');
      await app
        .get(Jobs)
        .enqueue('confirm-order', { orderId: row.id, customer, note }, { transaction: manager });
      if (ctx.query('then', '') === 'conflict') throw new HttpError(409, 'conflict after the enqueue');
      return row.id;
    });
    ctx.json(201, { id });
  });
}

/** A replica whose queue is kept where `url` says (undefined: the application's database). */
function bootWithQueue(schema: string, url?: string, log = captureLog()): Promise<Application> {
  @Module({
    imports: [
      DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() }),
      JobsModule.forRoot({ schema, url, pollingIntervalS: 0.5 }),
    ],
    providers: [Confirmations],
  })
  class QueueModule {}
  return createApplication(QueueModule, { logger: log.logger, handleSignals: false });
}

beforeAll(() =>
  jobsTest.queryTestDatabase(`CREATE TABLE ${TABLE} (id serial PRIMARY KEY, customer text NOT NULL)`),
);
afterAll(() => jobsTest.queryTestDatabase(`DROP TABLE IF EXISTS ${TABLE}`));

function post(url: string, query: string): Promise<Response> {
  return fetch(`${url}/orders?${query}`, { method: 'POST' });
}

jobsTest.describeJobs('enqueue inside a TypeORM transaction', () => {
  let schema: string;
  let app: Application;
  let url: string;
  const log = captureLog();
  const rows = (customer: string) =>
    jobsTest.queryTestDatabase(`SELECT id FROM ${TABLE} WHERE customer = '${customer}'`);
  const jobs = (customer: string) =>
    jobsTest.queryTestDatabase(
      `SELECT data FROM ${schema}.job WHERE name = 'confirm-order' AND data->>'customer' = '${customer}'`,
    );

  beforeAll(async () => {
    schema = jobsTest.jobsSchema('tx');
    app = await bootWithQueue(schema, undefined, log);
    serveOrders(app);
    url = (await app.listen(0, '127.0.0.1')).url;
    const dataSource = app.get(DataSource);
    await eventually(() => dataSource.isInitialized, { within: 10_000 });
  }, 30_000);

  afterAll(async () => {
    await app.close();
    await jobsTest.dropJobsSchema(schema);
  });

  test('the order and its job are stored together, and the job runs', async () => {
    const res = await post(url, 'customer=ada');
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };

    expect(await rows('ada')).toEqual([{ id }]);
    expect(await jobs('ada')).toEqual([{ data: { orderId: id, customer: 'ada', note: '' } }]);
    await eventually(() => expect(confirmed).toContainEqual({ orderId: id, customer: 'ada', note: '' }), {
      within: 10_000,
    });
  }, 20_000);

  test('an enqueue PostgreSQL refuses (a NUL in the data) fails the request and leaves no order', async () => {
    // jsonb cannot hold \u0000: the job's INSERT fails inside the transaction, after the order's.
    const res = await post(url, `customer=linus&note=${encodeURIComponent('a\u0000b')}`);

    expect(res.status).toBe(500);
    const failure = await log.next((entry) => entry.err?.code === '22P05');
    expect(failure.err?.message).toContain('unsupported Unicode escape sequence');
    expect(await rows('linus')).toEqual([]);
    expect(await jobs('linus')).toEqual([]);
  });

  test('a transaction that fails after the enqueue leaves neither the order nor its job', async () => {
    const res = await post(url, 'customer=grace&then=conflict');

    expect(res.status).toBe(409);
    expect(await rows('grace')).toEqual([]);
    expect(await jobs('grace')).toEqual([]);
  });

  test('an EntityManager with no transaction open is refused before anything is stored', async () => {
    const manager = app.get(DataSource).manager;

    await expect(
      app.get(Jobs).enqueue('confirm-order', { customer: 'outside' }, { transaction: manager }),
    ).rejects.toMatchObject({ code: 'E_JOBS_NOT_A_TRANSACTION', message: expect.stringContaining('Fix:') });
    expect(await jobs('outside')).toEqual([]);
  });
});

jobsTest.describeJobs('enqueue inside a transaction, with the queue on JobsModule.forRoot({ url })', () => {
  let scratch: ScratchDatabase;
  const apps: Application[] = [];
  const schemas: string[] = [];
  const boot = async (queueUrl: string) => {
    const schema = jobsTest.jobsSchema('txurl');
    schemas.push(schema);
    const app = await bootWithQueue(schema, queueUrl);
    apps.push(app);
    return app;
  };

  beforeAll(async () => (scratch = await createScratchDatabase(postgresUrl())));
  afterAll(async () => {
    await Promise.allSettled(apps.map((app) => app.close()));
    await Promise.all(schemas.map((schema) => jobsTest.dropJobsSchema(schema)));
    await scratch.drop();
  });

  test('a queue on another database refuses the transaction, which then stores nothing', async () => {
    const app = await boot(scratch.url);
    const dataSource = app.get(DataSource);
    await eventually(() => dataSource.isInitialized, { within: 10_000 });

    const enqueued = dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO ${TABLE} (customer) VALUES ('elsewhere')`);
      await app.get(Jobs).enqueue('confirm-order', { customer: 'elsewhere' }, { transaction: manager });
    });

    await expect(enqueued).rejects.toMatchObject({
      code: 'E_JOBS_TRANSACTION_ELSEWHERE',
      message: expect.stringContaining('Fix:'),
    });
    expect(await jobsTest.queryTestDatabase(`SELECT id FROM ${TABLE} WHERE customer = 'elsewhere'`)).toEqual(
      [],
    );
  }, 30_000);

  test("a url naming the application's own database stores the job in the transaction", async () => {
    const app = await boot(postgresUrl());
    const dataSource = app.get(DataSource);
    await eventually(() => dataSource.isInitialized, { within: 10_000 });

    const id = await dataSource.transaction((manager) =>
      app.get(Jobs).enqueue('confirm-order', { customer: 'same' }, { transaction: manager }),
    );

    expect(id).toEqual(expect.any(String));
  }, 30_000);
});

import http from 'node:http';
import { killRunningApps } from '../factories/child-app';
import { gate } from '../factories/gates';
import { within } from '../factories/http-client';
import { describeNeeding } from '../factories/requirements';
import { sampleAuthorization, startSample, waitUntilReady } from '../factories/sample';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresServerMissing, postgresUrl } from '../factories/test-databases';

const RUNS = 5;
const CLIENTS = 8;

/** How one POST ended: its status (and the order's id on a 201), or the client's error code. */
interface Outcome {
  readonly customer: string;
  readonly status?: number;
  readonly id?: number;
  readonly error?: string;
}

afterAll(() => killRunningApps());

function post(
  url: string,
  agent: http.Agent,
  authorization: { authorization: string },
  customer: string,
): Promise<Outcome> {
  const body = JSON.stringify({ customer, product: 'Compiler', quantity: 1 });
  return new Promise((resolve) => {
    const fail = (error: NodeJS.ErrnoException) => resolve({ customer, error: error.code ?? error.message });
    const req = http.request(
      `${url}/api/orders`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', ...authorization },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('error', fail);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({
            customer,
            status,
            ...(status === 201 ? { id: (JSON.parse(text) as { id: number }).id } : {}),
          });
        });
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Keep-alive clients writing orders back to back, each tagged with its own customer name, until
 * the sample has exited or a client's request fails; SIGTERM once every client has had an answer.
 */
async function writeWhileStopping(databaseUrl: string, run: number): Promise<Outcome[]> {
  const sample = await startSample({ url: databaseUrl }, { env: { API_WRITES_PER_MINUTE: '1000000' } });
  await waitUntilReady(sample.url);
  const authorization = await sampleAuthorization(sample.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const outcomes: Outcome[] = [];
  let hasExited = false;
  const answered = Array.from({ length: CLIENTS }, () => gate());
  const clients = answered.map(async ({ open }, client) => {
    for (let n = 0; !hasExited; n++) {
      const outcome = await post(sample.url, agent, authorization, `run${run}-client${client}-${n}`);
      outcomes.push(outcome);
      if (outcome.error) return;
      open();
    }
  });
  await Promise.all(answered.map(({ opened }) => opened));
  sample.child.kill('SIGTERM');
  const exit = await within(sample.exited, 20_000, 'exit');
  hasExited = true;
  await within(Promise.all(clients), 10_000, 'every client to stop');
  agent.destroy();
  expect(exit).toMatchObject({ code: 0, signal: null });
  return outcomes;
}

describeNeeding(
  postgresServerMissing(),
  'SIGTERM while the sample takes orders under keep-alive load',
  () => {
    let database: ScratchDatabase;
    beforeAll(async () => (database = await createScratchDatabase(postgresUrl())));
    afterAll(() => database.drop());

    test(`every stored order was answered 201 (or not at all) and has its confirmation job, ${RUNS} times`, async () => {
      const outcomes: Outcome[] = [];
      for (let run = 0; run < RUNS; run++) outcomes.push(...(await writeWhileStopping(database.url, run)));

      const rows = await database.query<{ id: number; customer: string; jobs: string }>(
        `SELECT o.id, o.customer,
              (SELECT count(*) FROM keel_jobs.job j
                WHERE j.name = 'order-confirmation' AND (j.data->>'orderId')::int = o.id) AS jobs
         FROM orders o`,
      );
      const byCustomer = new Map(outcomes.map((outcome) => [outcome.customer, outcome]));
      const created = outcomes.filter((outcome) => outcome.status === 201);
      const stored = new Map(rows.map((row) => [row.id, row]));

      // Answered 201: the order and its job are both there.
      expect(created.filter(({ id }) => stored.get(id as number)?.jobs !== '1')).toEqual([]);
      // Stored: its job is there too, and its client was told 201, or was told nothing.
      expect(rows.filter((row) => row.jobs !== '1')).toEqual([]);
      expect(
        rows
          .map((row) => byCustomer.get(row.customer))
          .filter((outcome) => outcome?.status !== undefined && outcome.status !== 201),
      ).toEqual([]);
      // Whatever a client was answered besides 201 left nothing behind, and nothing was a 500.
      expect(outcomes.filter(({ status }) => status !== undefined && status >= 500)).toEqual([]);
      expect(created.length).toBeGreaterThan(RUNS * CLIENTS);
    }, 300_000);
  },
);

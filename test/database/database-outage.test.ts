import { eventually } from '../factories/eventually';
import { captureLog, ERROR_LEVEL, type LogCapture } from '../factories/log';
import { startOutageApp, storedNoteIds, type OutageApp, type OutageDialect } from '../factories/outage-app';
import { describeNeeding } from '../factories/requirements';
import { mariadbMissing, mariadbUrl, postgresUrl } from '../factories/test-databases';

jest.setTimeout(60_000);

const BOUNDS = { queryTimeoutMs: 1000, connectTimeoutMs: 1000 };
// What a request may take at worst while the database is away: waiting for a connection (the
// connect timeout), then its query (the query timeout), and the time to answer on a busy machine.
const WORST_ANSWER_MS = BOUNDS.queryTimeoutMs + BOUNDS.connectTimeoutMs + 750;

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly retryAfter: string | null;
  readonly ms: number;
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const startedAt = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const body = (await response.json()) as Record<string, unknown>;
  return {
    status: response.status,
    body,
    retryAfter: response.headers.get('retry-after'),
    ms: performance.now() - startedAt,
  };
}

const read = (served: OutageApp, id: number) => ask(`${served.url}/notes/${id}`);
const write = (served: OutageApp, text: string) =>
  ask(`${served.url}/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });

function linesSaying(log: LogCapture, msg: string) {
  return log.entries().filter((entry) => entry.msg === msg);
}

const UNAVAILABLE = { status: 503, body: { error: 'database unavailable' }, retryAfter: '2' };

const dialects: OutageDialect[] = [
  { name: 'PostgreSQL', type: 'postgres', url: postgresUrl(), connectTimeoutOption: 'connectTimeoutMS' },
];
const mariadb = mariadbUrl();
if (mariadb)
  dialects.push({ name: 'MariaDB', type: 'mariadb', url: mariadb, connectTimeoutOption: 'connectTimeout' });
// Without a server the MariaDB cases skip, saying so, or fail where KEEL_REQUIRE_SERVICES=1.
else describeNeeding(mariadbMissing(), 'a MariaDB database that fails after boot', () => undefined);

describe.each(dialects)('a $name database that fails after boot', (dialect) => {
  let served: OutageApp;
  let log: LogCapture;
  /** Ids of the notes whose write was acknowledged with 201. */
  const acknowledged: number[] = [];

  beforeEach(async () => {
    log = captureLog();
    served = await startOutageApp(dialect, BOUNDS, log);
    await eventually(async () => (await ask(`${served.url}/health/ready`)).status === 200, {
      within: 15_000,
      every: 20,
      what: 'readiness',
    });
    for (const text of ['first', 'second', 'third']) acknowledged.push(await writeAcknowledged(text));
  });

  afterEach(() => served.close());

  async function writeAcknowledged(text: string): Promise<number> {
    const answer = await write(served, text);
    expect(answer.status).toBe(201);
    return answer.body.id as number;
  }

  /** A read, a write and readiness at once, each answered as when the database is up. */
  async function isEveryRouteServing(): Promise<boolean> {
    const [reading, writing, ready] = await Promise.all([
      read(served, acknowledged[0] as number),
      write(served, 'back'),
      ask(`${served.url}/health/ready`),
    ]);
    if (writing.status === 201) acknowledged.push(writing.body.id as number);
    return reading.status === 200 && writing.status === 201 && ready.status === 200;
  }

  async function expectEveryRouteWorks(): Promise<void> {
    const id = acknowledged[0] as number;
    expect(await read(served, id)).toMatchObject({ status: 200, body: { id } });
    acknowledged.push(await writeAcknowledged('after'));
    expect((await ask(`${served.url}/health/ready`)).status).toBe(200);
  }

  test('refused: reads and writes answer 503 with Retry-After at once, the outage is logged once, and all is back within 2 s of its return', async () => {
    await served.proxy.setMode('down');

    const during: Answer[] = [];
    for (let round = 0; round < 5; round++) {
      during.push(
        ...(await Promise.all([read(served, acknowledged[0] as number), write(served, `during ${round}`)])),
      );
    }
    const readiness = await ask(`${served.url}/health/ready`);
    const liveness = await ask(`${served.url}/health`);

    for (const answer of during) {
      expect(answer).toMatchObject(UNAVAILABLE);
      expect(answer.ms).toBeLessThan(1000);
    }
    expect(readiness).toMatchObject({ status: 503, body: { status: 'error' } });
    expect(liveness).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(
      linesSaying(log, 'database unavailable: requests that need it answer 503 until it returns'),
    ).toHaveLength(1);
    expect(
      log.entries().filter((entry) => entry.msg === 'request failed' && entry.level >= ERROR_LEVEL),
    ).toEqual([]);

    await served.proxy.setMode('forward');
    const returnedAt = performance.now();
    await eventually(
      async () => {
        const [reading, writing] = await Promise.all([
          read(served, acknowledged[0] as number),
          write(served, 'back'),
        ]);
        if (writing.status === 201) acknowledged.push(writing.body.id as number);
        return reading.status === 200 && writing.status === 201;
      },
      { within: 2000, every: 20, what: 'a read and a write to succeed' },
    );

    expect(performance.now() - returnedAt).toBeLessThan(2000);
    await expectEveryRouteWorks();
    expect(linesSaying(log, 'database available again')).toHaveLength(1);
    expect(await storedNoteIds(dialect, acknowledged)).toEqual(acknowledged);
  });

  test('blackholed with 10 queries in flight: every request is answered within the bounds, and the pool heals without a restart', async () => {
    // The network drops the pool's connections without a word, and new ones get no answer.
    served.proxy.severConnections();
    await served.proxy.setMode('blackhole');
    const inFlight = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? read(served, acknowledged[0] as number) : write(served, `in flight ${index}`),
      ),
    );
    const readiness = await ask(`${served.url}/health/ready`);

    for (const answer of inFlight) {
      expect(answer).toMatchObject(UNAVAILABLE);
      expect(answer.ms).toBeLessThan(WORST_ANSWER_MS);
    }
    expect(readiness.status).toBe(503);
    expect(readiness.ms).toBeLessThan(1000);

    await served.proxy.setMode('forward');
    await eventually(isEveryRouteServing, {
      within: 5000,
      every: 20,
      what: 'a read, a write and readiness to succeed',
    });
    // Ten at once take every connection the pool may hold: none of them is left stuck.
    const afterwards = await Promise.all(
      Array.from({ length: 10 }, () => read(served, acknowledged[0] as number)),
    );
    for (const answer of afterwards) expect(answer.status).toBe(200);
    await expectEveryRouteWorks();
    expect(await storedNoteIds(dialect, acknowledged)).toEqual(acknowledged);
  });

  test('blackholed with the pool full of idle connections: they are retired, and a read, a write and readiness succeed within 2 s of the return', async () => {
    // Ten reads at once leave the pool holding about as many connections, idle when the network
    // drops them without a word: more than the requests below can use up during the outage.
    await Promise.all(Array.from({ length: 10 }, () => read(served, acknowledged[0] as number)));
    expect(served.proxy.openConnections).toBeGreaterThan(5);
    served.proxy.severConnections();
    await served.proxy.setMode('blackhole');
    const during = await Promise.all([read(served, acknowledged[0] as number), write(served, 'frozen')]);
    for (const answer of during) {
      expect(answer).toMatchObject(UNAVAILABLE);
      expect(answer.ms).toBeLessThan(WORST_ANSWER_MS);
    }

    await served.proxy.setMode('forward');
    const returnedAt = performance.now();
    await eventually(isEveryRouteServing, {
      within: 2000,
      every: 20,
      what: 'a read, a write and readiness to succeed',
    });

    expect(performance.now() - returnedAt).toBeLessThan(2000);
    await expectEveryRouteWorks();
    expect(await storedNoteIds(dialect, acknowledged)).toEqual(acknowledged);
  });
});

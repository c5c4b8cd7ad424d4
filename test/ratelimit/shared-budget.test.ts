import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { killRunningApps, logged, startApp, type ChildApp } from '../factories/child-app';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresUrl } from '../factories/test-databases';

jest.setTimeout(60_000);

const REDIS_URL = 'redis://127.0.0.1:6379';
const LIMIT = 4;

afterAll(() => killRunningApps());

// Two replicas of one application, each in its own process, on one store.
async function startReplicas(env: Record<string, string>): Promise<[ChildApp, ChildApp]> {
  const settings = {
    LIMIT: String(LIMIT),
    WINDOW_S: '30',
    KEY_PREFIX: `rl-test-${randomBytes(6).toString('hex')}`,
  };
  const replicas = await Promise.all(
    [1, 2].map(() => startApp({ ...settings, ...env }, 'rate-limit-app.mjs')),
  );
  return replicas as [ChildApp, ChildApp];
}

async function stop(replicas: readonly ChildApp[]): Promise<void> {
  for (const replica of replicas) replica.child.kill('SIGTERM');
  await Promise.all(replicas.map((replica) => replica.exited));
}

// Requests taking turns between the replicas: the budget holds across them or it does not.
async function spendAlternately(replicas: readonly [ChildApp, ChildApp], count: number) {
  const answers = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${replicas[i % 2]?.url}/budget/spend`, { method: 'POST' });
    answers.push({ status: res.status, ratelimit: res.headers.get('ratelimit'), body: await res.text() });
  }
  return answers;
}

function expectOneBudget(
  answers: Awaited<ReturnType<typeof spendAlternately>>,
  replicas: readonly ChildApp[],
) {
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 429, 429]);
  const remaining = answers.map((answer) => /remaining=(\d+)/.exec(answer.ratelimit ?? '')?.[1]);
  expect(remaining).toEqual(['3', '2', '1', '0', '0', '0']);
  // Both replicas answered: the budget each spent is one and the same.
  const pids = new Set(
    answers.slice(0, LIMIT).map((answer) => (JSON.parse(answer.body) as { pid: number }).pid),
  );
  expect(pids).toEqual(new Set(replicas.map((replica) => replica.child.pid)));
  expect(JSON.parse(answers[5]?.body ?? '')).toEqual({ error: 'too many requests' });
}

describe("store 'postgres': two replicas on one database", () => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await createScratchDatabase(postgresUrl());
  });
  afterAll(() => database?.drop());

  test('share one budget, kept in the table keel creates', async () => {
    const replicas = await startReplicas({ STORE: 'postgres', DATABASE_URL: database.url });
    try {
      await Promise.all(
        replicas.map((replica) =>
          replica.waitFor(
            'the database connection',
            (lines) => logged(lines, 'database connected').length > 0,
          ),
        ),
      );
      expectOneBudget(await spendAlternately(replicas, 6), replicas);
      const rows = await database.query<{ points: number }>('SELECT points FROM keel_rate_limits');
      expect(rows).toEqual([{ points: 6 }]);
      for (const replica of replicas) {
        expect(
          logged(
            replica.lines(),
            'rate limit store failed: limited routes let requests through unlimited until it answers',
          ),
        ).toEqual([]);
      }
    } finally {
      await stop(replicas);
    }
  });
});

describe("store 'postgres' on the embedded database", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'keel-rate-limit-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  // PGlite serves every pooled connection from one session: statements one connection prepares
  // under a name are there for the others too.
  test('concurrent writers on several pooled connections spend one budget, with no store failure', async () => {
    const app = await startApp(
      {
        STORE: 'embedded',
        DATA_DIR: path.join(dataDir, 'postgres'),
        LIMIT: String(LIMIT),
        WINDOW_S: '30',
        KEY_PREFIX: `rl-test-${randomBytes(6).toString('hex')}`,
      },
      'rate-limit-app.mjs',
    );
    try {
      await app.waitFor(
        'the database connection',
        (lines) => logged(lines, 'database connected').length > 0,
        60_000,
      );
      // Three rounds of writers at once: each round takes connections the last one did not use.
      const statuses: number[] = [];
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => fetch(`${app.url}/budget/spend`, { method: 'POST' })),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 429)).toHaveLength(3 * 4 - LIMIT);
      expect(
        logged(
          app.lines(),
          'rate limit store failed: limited routes let requests through unlimited until it answers',
        ),
      ).toEqual([]);
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
    }
  });
});

describe('store { redis }: two replicas on one Redis', () => {
  test('share one budget', async () => {
    const replicas = await startReplicas({ STORE: 'redis', REDIS_URL });
    try {
      expectOneBudget(await spendAlternately(replicas, 6), replicas);
    } finally {
      await stop(replicas);
    }
  });
});

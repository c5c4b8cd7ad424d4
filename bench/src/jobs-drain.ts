// How fast one replica drains a queue of trivial jobs: JOBS (default 10,000) jobs that do nothing,
// all due at once, run by one application with `@Job('noop', { concurrency: JOBS_CONCURRENCY })`.
// Prints the jobs per second from the first job's start to the last job's end, then checks that
// pg-boss's table holds every job completed, once. On PostgreSQL at DATABASE_URL (default: the local
// server's `test` database); the queue's schema is dropped at the end.
//
//   npm run build && sh bench/install-keel.sh && npx tsc -p bench/tsconfig.json \
//     && node bench/dist/bench/src/jobs-drain.js
import 'reflect-metadata';
import { Client } from 'pg';
import { Injectable, Job, Jobs, JobsModule, Module, createApplication, type Application } from 'keel';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const total = Number(process.env.JOBS ?? 10_000);
const concurrency = Number(process.env.JOBS_CONCURRENCY ?? 1);
const schema = `keel_jobs_drain_${process.pid}`;
// Seeding waits for each enqueue; this many at a time.
const ENQUEUES_IN_FLIGHT = 50;

const drain = { started: 0, ended: 0, done: 0, finished: (): void => undefined };

@Injectable()
class Noop {
  @Job('noop', { concurrency })
  run(): void {
    drain.started ||= performance.now();
    drain.done += 1;
    if (drain.done === total) {
      drain.ended = performance.now();
      drain.finished();
    }
  }
}

function replica(): Promise<Application> {
  @Module({ imports: [JobsModule.forRoot({ url, schema })], providers: [Noop] })
  class DrainModule {}
  return createApplication(DrainModule, { logger: false, handleSignals: false });
}

// Every job is enqueued for an hour from now, then made due at once after the seeding replica has
// closed: the drain measures fetching and running, not enqueueing.
async function seed(client: Client): Promise<void> {
  const app = await replica();
  const jobs = app.get(Jobs);
  const seeding = performance.now();
  for (let next = 0; next < total; next += ENQUEUES_IN_FLIGHT) {
    const batch = Array.from({ length: Math.min(ENQUEUES_IN_FLIGHT, total - next) }, (_, i) =>
      jobs.enqueue('noop', { n: next + i }, { delayS: 3600 }),
    );
    await Promise.all(batch);
  }
  await app.close();
  await client.query(`UPDATE ${schema}.job SET start_after = now() WHERE name = 'noop'`);
  process.stderr.write(`enqueued ${total} jobs in ${Math.round(performance.now() - seeding)} ms\n`);
}

async function stateCounts(client: Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ state: string; jobs: number }>(
    `SELECT state, count(*)::int AS jobs FROM ${schema}.job WHERE name = 'noop' GROUP BY state`,
  );
  return Object.fromEntries(rows.map(({ state, jobs }) => [state, jobs]));
}

async function main(): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await seed(client);
    const finished = new Promise<void>((resolve) => (drain.finished = resolve));
    const app = await replica();
    await finished;
    await app.close();
    const seconds = (drain.ended - drain.started) / 1000;
    const states = await stateCounts(client);
    const runs = drain.done;
    process.stdout.write(
      `${JSON.stringify({ jobs: total, concurrency, seconds: Number(seconds.toFixed(2)), jobsPerSecond: Math.round(total / seconds), runs, states })}\n`,
    );
    if (runs !== total || states.completed !== total) process.exitCode = 1;
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

void main();

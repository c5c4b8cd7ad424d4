import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { killRunningApps, startApp, type ChildApp } from '../factories/child-app';
import { gate } from '../factories/gates';
import { within } from '../factories/http-client';

const REPETITIONS = 20;
const CLIENTS = 8;

/** How each request of a load run ended: a status, or the client's error code. */
type Outcome = number | string;

let elsewhere: http.Server;
let elsewherePort: number;

beforeAll(async () => {
  // Another instance of the service, where the orchestrator sends new connections once the
  // stopping one is out of its load balancer.
  elsewhere = http.createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewherePort = (elsewhere.address() as AddressInfo).port;
});

afterAll(() => {
  killRunningApps();
  elsewhere.close();
});

/** One client sending requests back to back on its keep-alive connections until it is refused. */
async function keepLoading(
  url: string,
  agent: http.Agent,
  outcomes: Outcome[],
  { isStopped, onAnswered }: { isStopped: () => boolean; onAnswered: () => void },
): Promise<void> {
  while (!isStopped()) {
    const outcome = await send(url, agent);
    outcomes.push(outcome);
    if (typeof outcome === 'string') return;
    onAnswered();
  }
}

function send(url: string, agent: http.Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const fail = (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message);
    http
      .get(`${url}/state`, { agent }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', fail);
      })
      .on('error', fail);
  });
}

/**
 * Keep-alive clients loading the app; SIGTERM mid-load; every request's outcome. With
 * `redirectNewConnections`, connections opened after the signal reach the other instance, as they
 * would once the orchestrator has taken the stopping one out; the clients then stop at the exit.
 */
async function signalUnderLoad(app: ChildApp, redirectNewConnections: boolean): Promise<Outcome[]> {
  let signalled = false;
  let hasExited = false;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  if (redirectNewConnections) {
    const connect = agent.createConnection.bind(agent);
    agent.createConnection = (options, callback) =>
      signalled ? net.connect(elsewherePort, '127.0.0.1') : connect(options, callback);
  }
  const outcomes: Outcome[] = [];
  const answered = Array.from({ length: CLIENTS }, () => gate());
  const clients = answered.map(({ open }) =>
    keepLoading(app.url, agent, outcomes, { isStopped: () => hasExited, onAnswered: open }),
  );
  // Past the start: every client has had an answer, so its connection has been accepted.
  await Promise.all(answered.map(({ opened }) => opened));
  app.child.kill('SIGTERM');
  signalled = true;
  await within(app.exited, 10_000, 'exit');
  hasExited = true;
  await within(Promise.all(clients), 10_000, 'every client to stop');
  agent.destroy();
  return outcomes;
}

describe.each([
  { delay: 'no shutdown delay', env: {} as Record<string, string>, redirect: false },
  { delay: 'a shutdown delay', env: { SHUTDOWN_DELAY_MS: '150' }, redirect: true },
])('SIGTERM under keep-alive load, with $delay', ({ env, redirect }) => {
  test(`every request is answered or refused before it was sent, ${REPETITIONS} times`, async () => {
    const failures: Outcome[] = [];
    let answered = 0;
    for (let run = 0; run < REPETITIONS; run++) {
      const outcomes = await signalUnderLoad(await startApp(env), redirect);
      answered += outcomes.filter((outcome) => outcome === 200).length;
      failures.push(...outcomes.filter((outcome) => outcome !== 200 && outcome !== 'ECONNREFUSED'));
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(REPETITIONS * CLIENTS);
  }, 120_000);
});

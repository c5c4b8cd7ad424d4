import http from 'node:http';
import { Client } from 'pg';
import { startSampleReplicas } from '../factories/sample-replicas';

jest.setTimeout(180_000);

const REPLICAS = ['r0', 'r1', 'r2'] as const;
const CLIENTS = 8;
const UNLIMITED_WRITES = String(Number.MAX_SAFE_INTEGER);
// Longer than HAProxy takes to see readiness fail (2 checks 300 ms apart): it stops sending first.
const SHUTDOWN_DELAY_MS = '1500';

interface Outcome {
  readonly status: number | undefined;
  readonly body: string;
}

// The operator's API token, issued once the replicas are up; every replica knows it.
let authorization: { authorization?: string } = {};

function send(agent: http.Agent, url: string, method: string, body?: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', ...authorization };
    const req = http.request(url, { method, agent, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
      res.on('error', (error) => resolve({ status: undefined, body: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error) => resolve({ status: undefined, body: error.message }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Keep-alive clients reading and writing through the balancer until stopped. */
function startLoad(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const acknowledged: number[] = [];
  const failures: string[] = [];
  let requests = 0;
  let isRunning = true;
  const client = async (index: number): Promise<void> => {
    for (let n = 0; isRunning; n++) {
      const isWrite = (n + index) % 2 === 0;
      const id = acknowledged[acknowledged.length - 1];
      const outcome =
        isWrite || id === undefined
          ? await send(agent, `${url}/api/orders`, 'POST', {
              customer: 'Rolling',
              product: `p${index}-${n}`,
              quantity: 1,
            })
          : await send(agent, `${url}/api/orders/${id}`, 'GET');
      requests += 1;
      const expected = isWrite || id === undefined ? 201 : 200;
      if (outcome.status !== expected)
        failures.push(`${outcome.status ?? 'no answer'}: ${outcome.body.slice(0, 120)}`);
      else if (expected === 201) acknowledged.push((JSON.parse(outcome.body) as { id: number }).id);
    }
  };
  const clients = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
  return {
    acknowledged,
    failures,
    get requests() {
      return requests;
    },
    async stop() {
      isRunning = false;
      await clients;
      agent.destroy();
    },
  };
}

async function orderIds(url: string): Promise<number[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM orders ORDER BY id');
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

test('three sample replicas behind HAProxy are replaced one by one under keep-alive reads and writes: nothing fails, nothing is lost, every replica exits 0', async () => {
  // It stops what it started when a replica does not come up.
  const replicas = await startSampleReplicas(REPLICAS, {
    SHUTDOWN_DELAY_MS,
    // Every client writes through the balancer's one address: the sample's write limit would refuse them.
    API_WRITES_PER_MINUTE: UNLIMITED_WRITES,
  });
  authorization = replicas.authorization;
  const exits: (number | null)[] = [];
  try {
    const load = startLoad(replicas.balancer.url);
    for (const name of REPLICAS) {
      const before = load.requests;
      exits.push(await replicas.replace(name));
      // Traffic went on while this replica was replaced.
      expect(load.requests).toBeGreaterThan(before);
    }
    await load.stop();

    expect(load.failures).toEqual([]);
    expect(exits).toEqual([0, 0, 0]);
    expect(load.acknowledged.length).toBeGreaterThan(50);
    expect(await orderIds(replicas.databaseUrl)).toEqual([...load.acknowledged].sort((a, b) => a - b));
  } finally {
    await replicas.stop();
  }
});

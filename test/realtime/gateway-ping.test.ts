import { Gateway, MetricsModule, Module, OnMessage, Public } from 'keel';
import { useServedApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { scrapeUntil, valueOf } from '../factories/metrics';
import { connect, type WsClient } from './ws-client';

const PING_INTERVAL_MS = 200;

@Public()
@Gateway('/ws/heartbeat', { pingIntervalMs: PING_INTERVAL_MS })
class HeartbeatGateway {
  @OnMessage('echo')
  echo() {
    return { ok: true };
  }
}

@Module({ imports: [MetricsModule.forRoot()], providers: [HeartbeatGateway] })
class AppModule {}

const served = useServedApp(AppModule);
const wsUrl = () => `${served().url.replace('http://', 'ws://')}/ws/heartbeat`;

// The pings a client has received so far.
function countPings(client: WsClient): () => number {
  let pings = 0;
  client.ws.on('ping', () => pings++);
  return () => pings;
}

// Resolves once the metrics count `count` open WebSockets.
function openSockets(count: number): Promise<unknown> {
  return scrapeUntil(
    `${served().url}/metrics`,
    `${count} open WebSockets`,
    (samples) => {
      return valueOf(samples, 'keel_realtime_connections', { kind: 'websocket' }) === count;
    },
    3_000,
  );
}

describe('@Gateway pingIntervalMs: a socket that answers no ping is dropped', () => {
  test('a client that answers every ping stays open across several intervals', async () => {
    const client = await connect(wsUrl());
    const pings = countPings(client);
    await eventually(() => pings() >= 5, { within: 20 * PING_INTERVAL_MS, what: 'five pings' });
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.send('echo');
    expect((await client.next('echo')).data).toEqual({ ok: true });
    client.ws.close();
    await client.closed;
    await openSockets(0);
  });

  test('a client that never answers a ping is cut within about two intervals, and is no longer counted', async () => {
    const listening = await connect(wsUrl());
    await openSockets(1);
    const silent = await connect(wsUrl(), {}, { autoPong: false });
    const pings = countPings(silent);
    // Two intervals, and some slack for a busy machine's timers.
    await eventually(() => silent.ws.readyState === silent.ws.CLOSED, {
      within: 3 * PING_INTERVAL_MS + 500,
      what: 'the server to cut the client that answers no ping',
    });
    // Terminated, not closed: a client that does not answer pings would not answer a close frame.
    expect((await silent.closed).code).toBe(1006);
    expect(pings()).toBeGreaterThanOrEqual(1);
    await openSockets(1);
    expect(listening.ws.readyState).toBe(listening.ws.OPEN);
    listening.ws.close();
    await listening.closed;
    await openSockets(0);
  });
});

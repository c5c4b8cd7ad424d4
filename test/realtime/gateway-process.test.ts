import { readFileSync } from 'node:fs';
import { startApp, type ChildApp } from '../factories/child-app';
import { eventually } from '../factories/eventually';
import { connect } from './ws-client';

// The resident set of a process, in bytes, as the kernel counts it.
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1]) * 1024;
}

const wsUrl = (app: ChildApp) => `${app.url.replace('http://', 'ws://')}/ws`;

// The fixture gateway's maxBuffered.
const MAX_BUFFERED = 1024 * 1024;
// One of its frames: a 64 KiB chunk in its JSON and a 10-byte header, and the 17-byte close frame.
const ONE_FRAME = 64 * 1024 + 128;

describe('a gateway in its own process', () => {
  test('a client that stops reading is closed 1013, and the server holds no more than its limit for it', async () => {
    const app = await startApp({ FLOOD_MB: '256' }, 'ws-app.mjs');
    try {
      const pid = app.child.pid ?? 0;
      const client = await connect(wsUrl(app));
      const before = rssOf(pid);
      // The client reads nothing more: what the server sends piles up in its buffers.
      (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      client.send('flood');
      await app.waitFor('the flood to stop', (lines) => lines.some((line) => 'flooded' in line), 60_000);
      const { flooded, peakBuffered } = app.lines().find((line) => 'flooded' in line) as {
        flooded: number;
        peakBuffered: number;
      };
      // Stopped by the limit, far short of the 256 MB it would have sent to a reader.
      expect(flooded).toBeLessThan(256);
      // What waited for the client reached the limit, and passed it by one frame at most.
      expect(peakBuffered).toBeGreaterThan(MAX_BUFFERED);
      expect(peakBuffered).toBeLessThanOrEqual(MAX_BUFFERED + ONE_FRAME);
      expect(rssOf(pid) - before).toBeLessThan(64 * 1024 * 1024);
      (client.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect((await client.closed).code).toBe(1013);
      // The server still serves others.
      const other = await connect(wsUrl(app));
      other.send('echo', { n: 1 });
      expect((await other.next('echo')).data).toEqual({ n: 1 });
      other.ws.close();
    } finally {
      app.child.kill('SIGKILL');
      await app.exited;
    }
  }, 120_000);

  test('SIGTERM closes every socket 1001 inside the drain, and the process exits 0', async () => {
    const app = await startApp({}, 'ws-app.mjs');
    const clients = await Promise.all([connect(wsUrl(app)), connect(wsUrl(app)), connect(wsUrl(app))]);
    app.child.kill('SIGTERM');
    const closes = await Promise.all(clients.map((client) => client.closed));
    expect(closes.map((close) => close.code)).toEqual([1001, 1001, 1001]);
    const exit = await app.exited;
    expect(exit.code).toBe(0);
    const drained = app.lines().find((line) => line.msg === 'server drained');
    expect(drained).toBeDefined();
    await eventually(() => app.lines().some((line) => line.msg === 'shut down'), { within: 5_000 });
  }, 60_000);
});

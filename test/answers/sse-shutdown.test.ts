import { killRunningApps, logged, startApp } from '../factories/child-app';
import { openEventStream } from '../factories/event-stream-client';
import { within } from '../factories/http-client';

// A real process (~0.5 s) and a real signal.
jest.setTimeout(20_000);

afterEach(() => killRunningApps());

describe('an event stream at a graceful shutdown', () => {
  test('SIGTERM ends the stream inside the drain with a retry hint, and the process exits 0', async () => {
    const app = await startApp({}, 'sse-app.mjs');
    const stream = await openEventStream(`${app.url}/events`);
    await stream.waitFor('the first event', (text) => text.includes('data: first'));

    app.child.kill('SIGTERM');
    const end = await within(stream.ended, 5000, 'end of the stream');
    const exit = await within(app.exited, 5000, 'exit');

    expect(stream.text()).toBe('event: hello\nid: 1\ndata: first\n\nretry: 1000\n\n');
    expect(end.complete).toBe(true);
    expect(exit.code).toBe(0);
    const lines = app.lines();
    expect(lines.some((line) => line.returned === true)).toBe(true);
    // Ended once the server had stopped accepting, and the drain then finished without cutting anything.
    expect(logged(lines, 'server stops accepting; waiting for the requests in flight')).toHaveLength(1);
    expect(logged(lines, 'server drained')).toHaveLength(1);
    expect(logged(lines, 'shut down')).toHaveLength(1);
  });
});

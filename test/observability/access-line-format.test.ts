import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { REPO_ROOT, runNode } from '../factories/cli';
import { GENERATED_REQUEST_ID } from '../factories/request-ids';

/** A line of keel's default logger, as written and as parsed. */
interface WrittenLine {
  readonly text: string;
  readonly entry: Record<string, unknown>;
}

let accessLines: WrittenLine[];
// The wall clock before and after the fixture ran: every line's time falls between them.
let ranFrom: number;
let ranTo: number;

// keel's default logger writes its access lines itself, in pino's format: the fixture's stdout is
// what a log shipper reads.
beforeAll(async () => {
  const script = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'access-lines.mjs');
  ranFrom = Date.now();
  const run = await runNode(script, [], { timeoutMs: 30_000 });
  ranTo = Date.now();
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  accessLines = run.stdout
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => ({ text: `${text}\n`, entry: JSON.parse(text) as Record<string, unknown> }))
    .filter(({ entry }) => entry.msg === 'request');
});

const LEVEL_NAMES: Record<number, 'debug' | 'info' | 'error'> = { 20: 'debug', 30: 'info', 50: 'error' };

// The access line's fields in the order keel builds them (`accessLine`), which pino keeps.
const FIELD_ORDER = ['method', 'path', 'route', 'status', 'ms', 'bytes', 'requestId', 'traceId', 'aborted'];

/**
 * What pino itself writes for `entry`'s fields, given in the access line's order (not the order they
 * were read in, so that a field out of place differs), with the same time, pid and host.
 */
function writtenByPino(entry: Record<string, unknown>): string {
  const { level, time, pid, hostname, name, msg, ...read } = entry;
  const unknown = Object.keys(read).filter((key) => !FIELD_ORDER.includes(key));
  if (unknown.length > 0) throw new Error(`unexpected fields ${unknown.join(', ')}`);
  const fields = Object.fromEntries(FIELD_ORDER.filter((key) => key in read).map((key) => [key, read[key]]));
  let written = '';
  const logger = pino(
    {
      name: name as string,
      base: { pid, hostname },
      timestamp: () => `,"time":${String(time)}`,
      level: 'debug',
    },
    { write: (line: string) => (written = line) },
  );
  const levelName = LEVEL_NAMES[level as number];
  if (levelName === undefined) throw new Error(`unexpected level ${String(level)}`);
  logger[levelName](fields, msg as string);
  return written;
}

function lineOf(requestId: string): WrittenLine {
  const line = accessLines.find(({ entry }) => entry.requestId === requestId);
  if (line === undefined) throw new Error(`no access line for ${requestId}`);
  return line;
}

test('each access line is, byte for byte, the line pino writes for its fields', () => {
  expect(accessLines.length).toBe(6);
  for (const { text, entry } of accessLines) expect(text).toBe(writtenByPino(entry));
});

// The time is written from a second's digits and a millisecond's: a millisecond below 100 keeps its zeros.
test('each line carries the wall clock in milliseconds when its answer closed', () => {
  for (const { entry } of accessLines) {
    expect(Number.isInteger(entry.time)).toBe(true);
    expect(entry.time).toBeGreaterThanOrEqual(ranFrom);
    expect(entry.time).toBeLessThanOrEqual(ranTo);
  }
});

test("a routed request: the bindings of keel's logger, the route, the path without its query", () => {
  const { entry } = lineOf('plain-7');
  expect(entry).toMatchObject({
    level: 30,
    pid: expect.any(Number) as number,
    hostname: os.hostname(),
    name: 'keel',
    method: 'GET',
    path: '/orders/7',
    route: '/orders/:id',
    status: 200,
  });
});

test('a route no request matched, a 5xx, a generated id, an escaped path and a client that left', () => {
  expect(lineOf('unrouted').entry).toMatchObject({ level: 30, route: null, status: 404 });
  expect(lineOf('broken').entry).toMatchObject({ level: 50, route: '/broken', status: 500 });
  expect(lineOf('quoted').entry).toMatchObject({ path: '/orders/a"b\\c', route: '/orders/:id' });
  expect(lineOf('gone').entry).toMatchObject({ route: '/slow', status: null, bytes: 0, aborted: true });
  const generated = accessLines.find(({ entry }) => entry.path === '/orders/8');
  expect(generated?.entry.requestId).toMatch(GENERATED_REQUEST_ID);
});

test('the probes are written at debug, which the default logger leaves out', () => {
  expect(accessLines.some(({ entry }) => entry.requestId === 'probe')).toBe(false);
});

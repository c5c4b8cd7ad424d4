import type pino from 'pino';
import { isDefaultLogger, type Logger } from '../logging/logger';
import type { AccessLine } from './access-line';
import { hundredthsAsJson } from './hundredths-as-json';

/** The levels an access line is written at. */
export type AccessLevel = 'debug' | 'info' | 'error';

/** Writes one access line (`msg: 'request'`) at `level`. */
export type WriteAccessLine = (line: AccessLine, level: AccessLevel) => void;

/**
 * How the access log writes its lines to `logger`: through its methods, or, for the logger the
 * `logger` option's default made, as pino would write them, straight to its destination. A line per
 * request through pino's generic path (a loop over the fields, a character loop per string) costs
 * about as much again as the line itself: 6.5 µs a line against 4.3 µs here.
 *
 * @example
 * const write = accessLineWriter(logger);
 * write(accessLine(state, req, res), 'info');
 */
export function accessLineWriter(logger: Logger): WriteAccessLine {
  if (isDefaultLogger(logger)) return pinoLineWriter(logger);
  return (line, level) => logger[level](line, 'request');
}

// pino's format: level, time, the logger's bindings (pid, hostname, name), the fields in order, msg.
function pinoLineWriter(logger: pino.Logger): WriteAccessLine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded already: `logger` is one of its loggers
  const { symbols } = require('pino') as typeof pino;
  // Where pino keeps a logger's destination and its bindings, exported for such integrations.
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[symbols.streamSym] as { write(line: string): unknown };
  const bindings = internals[symbols.chindingsSym] as string;
  // Each level's number and the start of its lines, read and written once: a lookup by level name
  // on every line would go megamorphic, and fewer pieces are joined on every line.
  const { debug = 20, info = 30, error = 50 } = logger.levels.values;
  const debugLevel = lineLevel(debug);
  const infoLevel = lineLevel(info);
  const errorLevel = lineLevel(error);
  // What follows the time up to the path's first character: the bindings and the method's field.
  const heads = new Map<string | undefined, string>();
  const headOf = (method: string | undefined): string => {
    let head = heads.get(method);
    if (head === undefined) {
      head = `${bindings}${method === undefined ? '' : `,"method":${JSON.stringify(method)}`},"path":"`;
      heads.set(method, head);
    }
    return head;
  };
  return (line, level) => {
    const { value, start } = level === 'info' ? infoLevel : level === 'error' ? errorLevel : debugLevel;
    if (value < logger.levelVal) return;
    // Twelve pieces at most: each join is a string of its own until the batch is encoded.
    stream.write(
      `${start}${wallClock.now()}${headOf(line.method)}${pathInQuotes(line.path)}${routeAndStatus(line)}` +
        `${hundredthsAsJson(line.ms)},"bytes":${line.bytes},"requestId":"${line.requestId}${lineEnd(line)}`,
    );
  };
}

// A level's number, and what its lines start with up to their time.
function lineLevel(value: number): { readonly value: number; readonly start: string } {
  return { value, start: `{"level":${value},"time":` };
}

/**
 * pino's `time`, the milliseconds since the epoch, written once a millisecond, and from a second's
 * digits written once a second and a millisecond's three: a number past 2^31 is a double, which V8
 * writes through its shortest-digits search (about 450 instructions), and a busy replica writes many
 * lines a millisecond.
 */
const wallClock = {
  ms: 0,
  text: '0',
  second: -1,
  secondText: '',
  now(): string {
    const ms = Date.now();
    if (ms !== this.ms) {
      this.ms = ms;
      const second = Math.floor(ms / 1000);
      if (second !== this.second) {
        this.second = second;
        this.secondText = `${second}`;
      }
      this.text = `${this.secondText}${MILLISECONDS[ms - second * 1000]}`;
    }
    return this.text;
  },
};

// '000' to '999', each millisecond's digits within its second.
const MILLISECONDS = Array.from({ length: 1000 }, (_, ms) => `${ms}`.padStart(3, '0'));

// The line's route and status fields, from the path's closing quote to the ms field's name: one
// string for each route and status, as both are few and come back on every request.
function routeAndStatus({ route, status }: AccessLine): string {
  const key = route ?? '';
  let byStatus = ROUTE_FIELDS.get(key);
  if (byStatus === undefined) {
    byStatus = new Map();
    ROUTE_FIELDS.set(key, byStatus);
  }
  let fields = byStatus.get(status);
  if (fields === undefined) {
    fields = `","route":${route === null ? 'null' : JSON.stringify(route)},"status":${status},"ms":`;
    byStatus.set(status, fields);
  }
  return fields;
}

// Keyed by the route pattern ('' for no route: a pattern starts with '/'), then by status.
const ROUTE_FIELDS = new Map<string, Map<number | null, string>>();

// From the request id's closing quote to the line's end. The request id needs no escaping:
// requestIdFrom lets through only characters JSON writes as they are, and generates hexadecimal
// digits, a dash and a count otherwise.
function lineEnd({ traceId, aborted }: AccessLine): string {
  if (traceId === undefined && aborted === undefined) return PLAIN_LINE_END;
  return (
    `"${traceId === undefined ? '' : `,"traceId":${JSON.stringify(traceId)}`}` +
    `${aborted === true ? ',"aborted":true' : ''},"msg":"request"}\n`
  );
}

const PLAIN_LINE_END = '","msg":"request"}\n';

// What JSON.stringify would escape: a quote, a backslash, a control character, a surrogate (paired
// ones it keeps, but they are left to it). A path has none as a rule, and is then written as it is.
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

// The path as JSON writes it between its quotes.
function pathInQuotes(path: string): string {
  return ESCAPED_IN_JSON.test(path) ? JSON.stringify(path).slice(1, -1) : path;
}

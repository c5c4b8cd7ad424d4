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
  return (line, level) => {
    const { value, start } = level === 'info' ? infoLevel : level === 'error' ? errorLevel : debugLevel;
    if (value < logger.levelVal) return;
    stream.write(`${start}${clock.now()}${bindings}${accessFields(line)},"msg":"request"}\n`);
  };
}

// A level's number, and what its lines start with up to their time.
function lineLevel(value: number): { readonly value: number; readonly start: string } {
  return { value, start: `{"level":${value},"time":` };
}

// pino's `time`, the milliseconds since the epoch, written once a millisecond: a number past 2^31
// is a double, which V8 writes through its shortest-digits search (about 450 instructions), and a
// busy replica writes many lines a millisecond.
const clock = {
  ms: 0,
  text: '0',
  now(): string {
    const ms = Date.now();
    if (ms !== this.ms) {
      this.ms = ms;
      this.text = `${ms}`;
    }
    return this.text;
  },
};

// The line's fields as pino writes them: in AccessLine's order, undefined ones left out. A string is
// quoted as JSON.stringify quotes it, which for what these fields can hold (a method, a path as Node
// read it, a route pattern, a checked or generated id) is what pino's own quoting writes.
function accessFields(line: AccessLine): string {
  const { method, route, traceId } = line;
  // The request id needs no escaping: requestIdFrom lets through only characters JSON writes as
  // they are, and generates hexadecimal digits, a dash and a count otherwise.
  return (
    (method === undefined ? '' : fieldOnce(METHOD_FIELDS, ',"method":', method)) +
    `,"path":${quotedPath(line.path)}` +
    (route === null ? ',"route":null' : fieldOnce(ROUTE_FIELDS, ',"route":', route)) +
    `,"status":${line.status},"ms":${hundredthsAsJson(line.ms)},"bytes":${line.bytes},"requestId":"${line.requestId}"` +
    (traceId === undefined ? '' : `,"traceId":${JSON.stringify(traceId)}`) +
    (line.aborted === true ? ',"aborted":true' : '')
  );
}

// Methods and route patterns are few and come back on every request: each field is written once.
const METHOD_FIELDS = new Map<string, string>();
const ROUTE_FIELDS = new Map<string, string>();

function fieldOnce(fields: Map<string, string>, name: string, text: string): string {
  let field = fields.get(text);
  if (field === undefined) {
    field = `${name}${JSON.stringify(text)}`;
    fields.set(text, field);
  }
  return field;
}

// What JSON.stringify would escape: a quote, a backslash, a control character, a surrogate (paired
// ones it keeps, but they are left to it). A path has none as a rule, and then needs only quotes.
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

function quotedPath(path: string): string {
  return ESCAPED_IN_JSON.test(path) ? JSON.stringify(path) : `"${path}"`;
}

import type { ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger';
import type { RequestWatcher } from '../http/request-watchers';
import type { RequestState } from '../http/request-state';
import { accessLine, bytesWritten, type AccessLine } from './access-line';
import { accessLineWriter, type AccessLevel } from './access-line-writer';

/**
 * The access log, as the dispatcher's watcher: one line per request once its answer is finished
 * or its client went away (then `aborted: true`), at `info`, `error` for a 5xx, and `debug` for the
 * probes' routes (health, metrics), which orchestrators call every few seconds. A 503 with
 * `Retry-After` (overloaded, the database not connected yet or away, shutting down) is an answer the
 * application chose, whose cause is logged once where it is found: its line stays at `info`, so a
 * replica that is starting or shedding does not write an error per request. Built only where
 * the access log is on: otherwise no request pays for a listener.
 *
 * @example
 * new Dispatcher({ ...parts, watch: accessLog(logger) });
 */
export function accessLog(logger: Logger): RequestWatcher {
  const write = accessLineWriter(logger);
  return {
    arrived: (state, req) => {
      state.bytesBefore = bytesWritten(req);
    },
    closed: (state, req, res) => {
      const line = accessLine(state, req, res);
      write(line, levelOf(state, line, res));
    },
  };
}

function levelOf(state: RequestState, { status }: AccessLine, res: ServerResponse): AccessLevel {
  if (state.isProbe) return 'debug';
  if (status === null || status < 500) return 'info';
  return status === 503 && res.hasHeader('retry-after') ? 'info' : 'error';
}

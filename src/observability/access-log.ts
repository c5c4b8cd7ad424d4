import type { Logger } from '../logging/logger';
import type { RequestWatcher } from '../http/request-watchers';
import type { RequestState } from '../http/request-state';
import { accessLine, bytesWritten, type AccessLine } from './access-line';
import { accessLineWriter, type AccessLevel } from './access-line-writer';

/**
 * The access log, as the dispatcher's watcher: one line per request once its answer is finished
 * or its client went away (then `aborted: true`), at `info`, `error` for a 5xx, and `debug` for the
 * probes' routes (health, metrics), which orchestrators call every few seconds. Built only where
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
      write(line, levelOf(state, line));
    },
  };
}

function levelOf(state: RequestState, line: AccessLine): AccessLevel {
  if (state.isProbe) return 'debug';
  return line.status !== null && line.status >= 500 ? 'error' : 'info';
}

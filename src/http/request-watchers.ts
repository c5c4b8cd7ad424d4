import type { IncomingMessage, ServerResponse } from 'node:http';
// The module's own, not the global: the global is a getter, looked up on every read.
import { performance } from 'node:perf_hooks';
import { InjectionToken } from '../container/token';
import { WATCHED, whenClosed } from './held-headers';
import type { RequestState } from './request-state';

/**
 * Sees each request: as it arrives, before any phase, and once its answer is finished or its client
 * went away. What the access log and the metrics hang on; `state.startedAt` is when it arrived,
 * `state.closedAt` when its answer closed.
 */
export interface RequestWatcher {
  readonly arrived?: (state: RequestState, req: IncomingMessage, res: ServerResponse) => void;
  readonly closed: (state: RequestState, req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Watchers a module adds to every request (the metrics' timing and counting): read once at boot
 * and given to the dispatcher with the access log's, as one watcher.
 *
 * @example
 * { provide: REQUEST_WATCHERS, useFactory: (http: HttpMetrics) => http.watcher, inject: [HttpMetrics] }
 */
export const REQUEST_WATCHERS = new InjectionToken<RequestWatcher>('REQUEST_WATCHERS', { multi: true });

/**
 * One watcher for all of `watchers`, decided at boot: none gives undefined, so a request pays
 * nothing; one is itself, with no loop around it.
 *
 * @example
 * new Dispatcher({ ...parts, watch: composeWatchers([accessLog(logger), http.watcher]) });
 */
export function composeWatchers(watchers: readonly RequestWatcher[]): RequestWatcher | undefined {
  if (watchers.length <= 1) return watchers[0];
  const arriving = watchers.flatMap(({ arrived }) => (arrived === undefined ? [] : [arrived]));
  return {
    arrived:
      arriving.length === 0
        ? undefined
        : (state, req, res) => {
            for (const arrived of arriving) arrived(state, req, res);
          },
    closed: (state, req, res) => {
      for (const watcher of watchers) watcher.closed(state, req, res);
    },
  };
}

type Watched = ServerResponse & { [WATCHED]?: RequestState | undefined };

/** Starts watching one request. */
export type StartWatching = (state: RequestState, req: IncomingMessage, res: ServerResponse) => void;

/**
 * How the dispatcher starts `watcher` on each request: it notes when the request arrived, tells the
 * watcher, and tells it again when the answer closes ('close' comes once either way: after the
 * answer is finished, or when the connection drops). One listener, made here once and shared by
 * every request, which finds its request on the response: no closure per request.
 *
 * @example
 * const startWatching = watching(watcher);
 * startWatching(state, req, res);
 */
export function watching(watcher: RequestWatcher): StartWatching {
  const { arrived, closed } = watcher;
  function onClose(this: Watched): void {
    const state = this[WATCHED];
    if (state === undefined) return;
    this[WATCHED] = undefined;
    state.closedAt = performance.now();
    closed(state, this.req, this);
  }
  return (state, req, res) => {
    state.startedAt = performance.now();
    arrived?.(state, req, res);
    (res as Watched)[WATCHED] = state;
    whenClosed(res, onClose);
  };
}

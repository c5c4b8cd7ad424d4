import { InjectionToken } from '../container/token';
import type { RequestWatcher } from './dispatcher';

/**
 * Watchers a module adds to every request (the metrics' timing and counting): read once at boot
 * and given to the dispatcher with the access log's, as one watcher.
 *
 * @example
 * { provide: REQUEST_WATCHERS, useFactory: (http: HttpMetrics) => http.watch, inject: [HttpMetrics] }
 */
export const REQUEST_WATCHERS = new InjectionToken<RequestWatcher>('REQUEST_WATCHERS', { multi: true });

/**
 * One watcher for all of `watchers`, decided at boot: none gives undefined, so a request pays
 * nothing; one is itself, with no loop around it.
 *
 * @example
 * new Dispatcher({ ...parts, watch: composeWatchers([accessLog(logger), http.watch]) });
 */
export function composeWatchers(watchers: readonly RequestWatcher[]): RequestWatcher | undefined {
  if (watchers.length <= 1) return watchers[0];
  return (state, req, res) => {
    for (const watch of watchers) watch(state, req, res);
  };
}

import { InjectionToken } from '../container/token';

/** A server of a module's own that serves beside the application (metrics on a port of their own). */
export interface ApplicationListener {
  /**
   * Starts serving on `host`, the one `app.listen()` was given (undefined: every interface), once
   * the application's own server is bound; rejects when it cannot. It stops in its
   * `onApplicationShutdown`, after the requests in flight.
   */
  listen(host: string | undefined): Promise<void>;
}

/**
 * The servers that open with the application's `listen()`: an application that never listens (a
 * command, an in-process test) opens none.
 *
 * @example
 * { provide: APP_LISTENERS, useExisting: MetricsListener }
 */
export const APP_LISTENERS = new InjectionToken<ApplicationListener>('APP_LISTENERS', { multi: true });

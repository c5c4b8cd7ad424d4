import inject, { type InjectOptions, type Response } from 'light-my-request';
import { Application, requestListenerOf } from '../application/application';

export type { InjectOptions, Response as InjectResponse } from 'light-my-request';

/**
 * An application booted for tests: everything an {@link Application} is, plus `inject`, which sends
 * a request through the whole pipeline in-process, with no socket.
 *
 * @example
 * const res = await app.inject({ method: 'GET', url: '/api/orders/1' });
 * expect(res.json()).toEqual({ id: 1 });
 */
export class TestingApplication extends Application {
  /**
   * Sends one request through the whole pipeline (raw middleware, body parsing, application
   * middleware, routing, the handler, the error responder), as a request over HTTP would go.
   * @example await app.inject({ method: 'POST', url: '/api/orders', payload: { customer: 'Ada' } })
   */
  inject(options: InjectOptions | string): Promise<Response> {
    return inject(requestListenerOf(this), options);
  }
}

import type { Class } from '../container/token';
import type { Context } from '../http/context';

/**
 * A guard decides whether a request reaches its handler: `true` goes on, `false` is 403
 * `{"error":"forbidden"}`, and a thrown `HttpError` answers with its own status.
 *
 * @example
 * @Injectable()
 * class AdminGuard implements CanActivate {
 *   canActivate(ctx: Context) { return ctx.req.get('x-role') === 'admin'; }
 * }
 */
export interface CanActivate {
  canActivate(ctx: Context): boolean | Promise<boolean>;
}

/** What an interceptor calls to run the rest of the chain; it resolves with the handler's value. */
export type CallNext = () => Promise<unknown>;

/**
 * An interceptor wraps the handler: `next()` runs the rest (inner interceptors, parameters, the
 * handler) and resolves with the handler's value; what `intercept` resolves with is what is sent.
 *
 * @example
 * class Envelope implements Interceptor {
 *   async intercept(ctx: Context, next: CallNext) { return { data: await next() }; }
 * }
 */
export interface Interceptor {
  intercept(ctx: Context, next: CallNext): unknown;
}

/**
 * An exception filter answers an error its `@Catch(...)` names (every error without one). It
 * answers through the context; a returned value is sent as JSON; returning nothing passes the error
 * on to the error middleware and keel's responder.
 *
 * @example
 * @Catch(EntityNotFoundError)
 * class NotFoundFilter implements ExceptionFilter {
 *   catch(_error: unknown, ctx: Context) { ctx.error(404, 'not found'); }
 * }
 */
export interface ExceptionFilter<E = unknown> {
  catch(error: E, ctx: Context): unknown;
}

/** The parameter a pipe transforms: where its value came from and its name. */
export interface ParamTarget {
  readonly source: 'param' | 'query' | 'form' | 'body' | 'headers' | 'cookies' | 'custom';
  /** The name the decorator read (`id` for `@Param('id')`); undefined for whole-object reads. */
  readonly name?: string;
  /** The parameter's declared type, as TypeScript emitted it. */
  readonly type?: unknown;
}

/**
 * A pipe converts or checks a handler argument before the handler runs; a throw (an `HttpError`,
 * usually 400) answers instead of the handler.
 *
 * @example
 * class TrimPipe implements PipeTransform { transform(value: unknown) { return String(value).trim(); } }
 * show(@Query('q', '', TrimPipe) q: string) {}
 */
export interface PipeTransform<In = unknown, Out = unknown> {
  transform(value: In, ctx: Context, target: ParamTarget): Out | Promise<Out>;
}

/** A hook as a decorator names it: a class, built through DI in the controller's module, or an instance. */
export type HookEntry<T> = Class<T> | T;

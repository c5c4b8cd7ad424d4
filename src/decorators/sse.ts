import type { SseOptions } from '../http/event-stream';
import { MetadataKey } from '../metadata/keys';
import { Get, type RouteOptions } from './route';
import { SetMetadata } from './hooks';
import { createParamDecorator, type PipeEntry } from './params';

/** Options of `@Sse()`: the route's name, and how its stream behaves. */
export interface SseRouteOptions extends RouteOptions, SseOptions {}

/**
 * Routes GET requests for `path` to this method and answers with Server-Sent Events: the method
 * returns (or resolves with) an `AsyncIterable`, and each item it yields is one event,
 * `{ data, event?, id?, retry? }`. A handler that answers otherwise (`ctx.error(404, ...)`) and
 * returns nothing opens no stream.
 *
 * @example
 * @Sse('live') async *live(ctx: Context) { for await (const order of this.orders.created()) yield { event: 'order', data: order }; }
 */
export function Sse(path = '', options: SseRouteOptions = {}): MethodDecorator {
  const { name, ...stream } = options;
  return (prototype, property, descriptor) => {
    Get(path, { name })(prototype, property, descriptor);
    SetMetadata(MetadataKey.eventStream, stream)(prototype, property);
  };
}

/**
 * Injects the id of the last event a reconnecting client saw (its `Last-Event-ID` header,
 * `ctx.lastEventId`), or undefined on a first connection; pipes may follow.
 *
 * @example
 * @Sse('live') live(@LastEventId() after: string | undefined) { return this.orders.since(after); }
 */
export const LastEventId: (data?: undefined, ...pipes: PipeEntry[]) => ParameterDecorator =
  createParamDecorator((ctx) => ctx.lastEventId);

import type { Express } from 'express';
import http from 'node:http';

/** The request and response classes a Node server creates its objects from. */
export interface ServerClasses {
  readonly IncomingMessage: typeof http.IncomingMessage;
  readonly ServerResponse: typeof http.ServerResponse;
}

/**
 * Gives every request and response of one Express application Express's helpers (`req.get`,
 * `res.json`, `res.redirect`...), at the least cost per request: a keel server creates its objects
 * from {@link ServerClasses} whose instances already have Express's prototypes, so nothing changes
 * per request; objects from any other source (an in-process request, a server keel did not create)
 * are given a prototype that adds Express's helpers to their own, made once per source.
 *
 * @example
 * const objects = new ExpressObjects(app.express);
 * http.createServer(objects.serverClasses, listener);
 */
export class ExpressObjects {
  readonly serverClasses: ServerClasses;
  readonly #request: object;
  readonly #response: object;
  readonly #adapted = new WeakMap<object, object>();

  constructor(express: Express) {
    this.#request = express.request;
    this.#response = express.response;
    this.serverClasses = {
      IncomingMessage: subclassOver(http.IncomingMessage, this.#request),
      ServerResponse: subclassOver(http.ServerResponse, this.#response),
    };
  }

  /** Links `req` and `res` as Express does, adapting objects a keel server did not create. @example objects.equip(req, res) */
  equip(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (!(req instanceof this.serverClasses.IncomingMessage))
      this.#adapt(req, this.#request, http.IncomingMessage);
    if (!(res instanceof this.serverClasses.ServerResponse))
      this.#adapt(res, this.#response, http.ServerResponse);
    const linked = req as http.IncomingMessage & { res?: unknown; originalUrl?: string };
    linked.res = res;
    linked.originalUrl = req.url;
    const answer = res as http.ServerResponse & { req?: unknown; locals?: object };
    answer.req = req;
    answer.locals ??= Object.create(null) as object;
  }

  // Express's helpers sit between the object and its own prototype, so that what the object's class
  // overrides (an in-process response's `write` and `end`) still wins over Node's.
  #adapt(target: object, helpers: object, nodeClass: { prototype: object }): void {
    const own = Object.getPrototypeOf(target) as object;
    let adapted = this.#adapted.get(own);
    if (!adapted) {
      adapted = Object.create(own, helperDescriptors(helpers, nodeClass.prototype)) as object;
      this.#adapted.set(own, adapted);
    }
    Object.setPrototypeOf(target, adapted);
  }
}

// A subclass of Node's class whose prototype inherits Express's helpers (which inherit Node's). A
// class, not a function returning `Reflect.construct(...)`: V8 keeps a class's instances on its fast
// path, and measured here the other way served a tenth of the requests.
function subclassOver<T extends typeof http.IncomingMessage | typeof http.ServerResponse>(
  base: T,
  helpers: object,
): T {
  const subclass = class extends (base as typeof http.IncomingMessage) {};
  Object.setPrototypeOf(subclass.prototype, helpers);
  return subclass as unknown as T;
}

// Express's request (or response) properties along its prototype chain, down to Node's class.
function helperDescriptors(helpers: object, stopAt: object): PropertyDescriptorMap {
  const descriptors: PropertyDescriptorMap = {};
  const chain: object[] = [];
  for (
    let link: object | null = helpers;
    link && link !== stopAt;
    link = Object.getPrototypeOf(link) as object | null
  ) {
    chain.unshift(link);
  }
  for (const link of chain) Object.assign(descriptors, Object.getOwnPropertyDescriptors(link));
  return descriptors;
}

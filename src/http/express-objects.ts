import type { Express } from 'express';
import http from 'node:http';
import { HeaderHoldingResponse } from './held-headers';

/** The request and response classes a Node server creates its objects from. */
export interface ServerClasses {
  readonly IncomingMessage: typeof http.IncomingMessage;
  readonly ServerResponse: typeof http.ServerResponse;
}

/**
 * Gives the requests and responses of one application Express's helpers (`req.get`, `res.json`,
 * `res.redirect`...), at the least cost per request, and loads Express only when something needs
 * them: keel's direct answers do not, and Express's modules are the largest part of a cold start
 * (measured here: 70 ms of 560). A keel server creates its objects from {@link ServerClasses},
 * subclasses of Node's classes whose prototypes take Express's helpers when Express loads (and from
 * then on serve as its `app.request` and `app.response`), so nothing changes per request and objects
 * already made get them too; objects from any other source (an in-process request, a server keel did
 * not create) are given a prototype that adds Express's helpers to their own, made once per source.
 *
 * @example
 * const objects = new ExpressObjects(createExpressApp);
 * http.createServer(objects.serverClasses, listener);
 * objects.load().use(helmet()); // Express loads here
 */
export class ExpressObjects {
  // Subclasses, not functions returning `Reflect.construct(...)`: V8 keeps a class's instances on
  // its fast path, and measured here the other way served a tenth of the requests.
  readonly serverClasses: ServerClasses = {
    IncomingMessage: class extends http.IncomingMessage {},
    ServerResponse: class extends HeaderHoldingResponse {} as typeof http.ServerResponse,
  };
  /** `app.locals`, the same object before and after Express loads. */
  readonly locals: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  readonly #create: () => Express;
  readonly #adapted = new WeakMap<object, object>();
  #app: Express | undefined;
  #isHandedOut = false;

  constructor(create: () => Express) {
    this.#create = create;
  }

  /** True once the application has been handed out (`app.express`): its middleware then runs first. */
  get isHandedOut(): boolean {
    return this.#isHandedOut;
  }

  /**
   * The Express application, handed out to the application's code: from now on its middleware runs
   * first (phase 1) for every request. @example objects.handOut().use(helmet())
   */
  handOut(): Express {
    this.#isHandedOut = true;
    return this.load();
  }

  /** Gives every request and response Express's helpers, from now on. @example ctx.runtime.loadHelpers() */
  readonly loadHelpers = (): void => {
    this.load();
  };

  /**
   * The Express application, made by the first call; from then on every request and response has
   * Express's helpers. @example objects.load().set('trust proxy', 1)
   */
  load(): Express {
    if (this.#app) return this.#app;
    const app = this.#create();
    Object.assign(this.locals, app.locals);
    app.locals = this.locals;
    // Copied, not linked by a prototype: measured here, changing the prototype of a prototype that
    // requests were already made from left every later request 10 % slower.
    const { IncomingMessage, ServerResponse } = this.serverClasses;
    Object.defineProperties(
      IncomingMessage.prototype,
      helperDescriptors(app.request, http.IncomingMessage.prototype),
    );
    Object.defineProperties(
      ServerResponse.prototype,
      helperDescriptors(app.response, http.ServerResponse.prototype),
    );
    // From now on these are Express's request and response: what the application adds to
    // `app.express.request` reaches every request, and a sub-app mounted on `app.express`, which
    // gives a request back its parent's `app.request` when it is done, gives it this one.
    app.request = IncomingMessage.prototype as Express['request'];
    app.response = ServerResponse.prototype as Express['response'];
    this.#app = app;
    return app;
  }

  /** Links `req` and `res` as Express does, adapting objects a keel server did not create. @example objects.equip(req, res) */
  equip(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (!(req instanceof this.serverClasses.IncomingMessage))
      this.#adapt(req, this.load().request, http.IncomingMessage);
    if (!(res instanceof this.serverClasses.ServerResponse))
      this.#adapt(res, this.load().response, http.ServerResponse);
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
  // A keel server's prototype names its class: the object keeps its own.
  Reflect.deleteProperty(descriptors, 'constructor');
  return descriptors;
}

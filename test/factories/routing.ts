import { listenerOf } from './app';
import request from 'supertest';
import type { Application, Context } from 'keel';
import type { RouteDefinition } from '../../src/routing/route';

/** The HTTP methods the routing tests send. */
export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** Sends `method path` to the application in-process. */
export function send(app: Application, method: Verb, path: string): request.Test {
  return request(listenerOf(app))[method.toLowerCase() as Lowercase<Verb>](path);
}

/** The router's routes as `METHOD /path name` lines, in registration order. */
export function routeTable(app: Application): string[] {
  return app.router.routes().map((route: RouteDefinition) => `${route.method} ${route.path} ${route.name}`);
}

/**
 * A resource controller whose seven actions answer with their own name, and the id where the route
 * has one, so a test can tell which action a request reached. Extend it and decorate the subclass;
 * override an action to give it other behaviour (store takes the context, so it can redirect).
 */
export class ActionEcho {
  index() {
    return { action: 'index' };
  }
  create() {
    return { action: 'create' };
  }
  store(_ctx: Context): unknown {
    return { action: 'store' };
  }
  show(ctx: Context) {
    return { action: 'show', id: ctx.param('id') };
  }
  edit(ctx: Context) {
    return { action: 'edit', id: ctx.param('id') };
  }
  update(ctx: Context) {
    return { action: 'update', id: ctx.param('id') };
  }
  destroy(ctx: Context) {
    return { action: 'destroy', id: ctx.param('id') };
  }
}

import type { StandardSchemaV1 } from '../binding/standard-schema';
import type { Class } from '../container/token';
import { Injectable } from '../decorators/injectable';
import { defineMetadata, getMethodParamTypes, getOwnMetadata } from '../metadata/reflection';

/** Limits of one gateway's connections; each a whole number above 0. */
export interface GatewayOptions {
  /** Bytes a client's frame may hold; a larger one closes its socket 1009. Default: 64 KiB. */
  readonly maxPayload?: number;
  /** Bytes the server may hold unsent for one socket; past it the socket is closed 1013. Default: 1 MiB. */
  readonly maxBuffered?: number;
  /** How often each socket is pinged; one that has not answered the previous ping is dropped. Default: 30 s. */
  readonly pingIntervalMs?: number;
}

/** What `@Gateway` records on its class. @internal */
export interface GatewayRecord {
  readonly path: string;
  readonly options: GatewayOptions;
}

/** One parameter of a gateway method, as its decorator declared it. @internal */
export type GatewayParam =
  | { readonly kind: 'body'; readonly type: Class | StandardSchemaV1 | undefined }
  | { readonly kind: 'socket' };

/** The methods of a gateway, by what calls them. @internal */
export interface GatewayMethods {
  readonly connect: readonly (string | symbol)[];
  readonly disconnect: readonly (string | symbol)[];
  readonly messages: ReadonlyMap<string, string | symbol>;
}

const GATEWAY = Symbol('keel:gateway');
const METHODS = Symbol('keel:gateway-methods');
const PARAMS = Symbol('keel:gateway-params');

/**
 * Serves WebSocket connections on `path` (of the application's own port) with the class's
 * `@OnConnect`, `@OnMessage` and `@OnDisconnect` methods: an injectable class, listed in a module's
 * providers. The upgrade is an HTTP request first: the application's authentication (the default
 * strategies, `@Authenticated(...)`, `@Public()`) and `@UseGuards` decide it before it is upgraded.
 *
 * @example
 * @Gateway('/ws/chat', { maxPayload: 16_384 })
 * export class ChatGateway {
 *   @OnMessage('say') say(@MessageBody() msg: Say) { return { heard: msg.text }; }
 * }
 */
export function Gateway(path: string, options: GatewayOptions = {}): ClassDecorator {
  return (target) => {
    Injectable()(target);
    defineMetadata(GATEWAY, { path, options } satisfies GatewayRecord, target);
  };
}

function addMethod(
  update: (methods: GatewayMethods, property: string | symbol) => GatewayMethods,
): MethodDecorator {
  return (target, property) => {
    const methods = getOwnMetadata<GatewayMethods>(METHODS, target) ?? {
      connect: [],
      disconnect: [],
      messages: new Map(),
    };
    defineMetadata(METHODS, update(methods, property), target);
  };
}

/** Runs when a socket has connected, with `@ConnectedSocket()` and `@CurrentUser()`. @example @OnConnect() hello(@ConnectedSocket() socket: RealtimeSocket) {} */
export function OnConnect(): MethodDecorator {
  return addMethod((methods, property) => ({ ...methods, connect: [...methods.connect, property] }));
}

/** Runs once a socket has closed, whoever closed it. @example @OnDisconnect() bye(@ConnectedSocket() socket: RealtimeSocket) {} */
export function OnDisconnect(): MethodDecorator {
  return addMethod((methods, property) => ({ ...methods, disconnect: [...methods.disconnect, property] }));
}

/**
 * Handles the frames `{ "event": event, "data": ... }`; what it returns (or resolves with) is sent
 * back to that socket as `{ event, data: value }`.
 *
 * @example
 * @OnMessage('say') say(@MessageBody() msg: Say) { return { ok: true }; }
 */
export function OnMessage(event: string): MethodDecorator {
  if (typeof event !== 'string' || event === '' || event === 'error')
    throw new TypeError(`@OnMessage(event) takes the event's name, a string other than '' and 'error'`);
  return addMethod((methods, property) => ({
    ...methods,
    messages: new Map([...methods.messages, [event, property]]),
  }));
}

function addParam(param: (type: unknown) => GatewayParam): ParameterDecorator {
  return (target, property, index) => {
    if (property === undefined) return;
    const params = getOwnMetadata<readonly (GatewayParam | undefined)[]>(PARAMS, target, property) ?? [];
    const next = [...params];
    next[index] = param(getMethodParamTypes(target, property)[index]);
    defineMetadata(PARAMS, next, target, property);
  };
}

/**
 * The frame's `data`, validated as a request body is: into the parameter's class (class-validator
 * rules), or through `schema` (a Standard Schema: zod, valibot, arktype). Invalid data gets an
 * error frame, and the method does not run.
 *
 * @example
 * @OnMessage('say') say(@MessageBody() msg: Say) {}
 */
export function MessageBody(schema?: StandardSchemaV1): ParameterDecorator {
  return addParam((type) => ({
    kind: 'body',
    type: schema ?? (typeof type === 'function' && type !== Object ? (type as Class) : undefined),
  }));
}

/** The `RealtimeSocket` the frame came on. @example hello(@ConnectedSocket() socket: RealtimeSocket) {} */
export function ConnectedSocket(): ParameterDecorator {
  return addParam(() => ({ kind: 'socket' }));
}

/** The gateway `type` declares, if it is one. @internal */
export function gatewayOf(type: unknown): GatewayRecord | undefined {
  return typeof type === 'function' ? getOwnMetadata<GatewayRecord>(GATEWAY, type) : undefined;
}

/** A gateway's methods, by what calls them. @internal */
export function gatewayMethods(type: Class): GatewayMethods {
  return (
    getOwnMetadata<GatewayMethods>(METHODS, type.prototype as object) ?? {
      connect: [],
      disconnect: [],
      messages: new Map(),
    }
  );
}

/** The parameters one gateway method declares. @internal */
export function gatewayParams(type: Class, property: string | symbol): readonly (GatewayParam | undefined)[] {
  return (
    getOwnMetadata<readonly (GatewayParam | undefined)[]>(PARAMS, type.prototype as object, property) ?? []
  );
}

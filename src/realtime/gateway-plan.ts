import type { Class } from '../container/token';
import { RealtimeErrors } from '../errors/realtime-errors';
import type { Context } from '../http/context';
import type { ArgumentSpec } from '../http/arguments';
import { bindValue } from '../http/bind';
import { MetadataKey } from '../metadata/keys';
import { getOwnMetadata } from '../metadata/reflection';
import { gatewayMethods, gatewayOf, gatewayParams, type GatewayOptions } from './gateway-decorators';
import type { RealtimeSocket } from './realtime-socket';

/** Why a frame was refused: sent back as `{ event: 'error', data: { error, fields? } }`. */
export class FrameRefusal {
  constructor(
    readonly error: string,
    readonly fields?: Readonly<Record<string, readonly string[]>>,
  ) {}
}

/** What one call of a gateway method is given: the socket, its upgrade's context, the frame's data. */
export interface GatewayCall {
  readonly socket: RealtimeSocket;
  readonly ctx: Context;
  readonly data: unknown;
}

/** One gateway method, ready to call: its arguments read, its body bound. */
export type GatewayMethod = (call: GatewayCall) => Promise<unknown>;

/** A gateway as the server serves it, read once at boot. @internal */
export interface GatewayPlan {
  readonly type: Class;
  readonly name: string;
  readonly path: string;
  readonly options: Required<GatewayOptions>;
  readonly connect: readonly GatewayMethod[];
  readonly disconnect: readonly GatewayMethod[];
  readonly messages: ReadonlyMap<string, GatewayMethod>;
}

const DEFAULTS: Required<GatewayOptions> = {
  maxPayload: 64 * 1024,
  maxBuffered: 1024 * 1024,
  pingIntervalMs: 30_000,
};

/**
 * Reads the gateway `type` declares and prepares its methods on `instance`; a misdeclared one is a
 * boot error naming it.
 *
 * @example
 * const plan = planGateway(ChatGateway, container.get(ChatGateway));
 */
export function planGateway(type: Class, instance: object): GatewayPlan {
  const record = gatewayOf(type);
  const name = type.name;
  if (!record) throw RealtimeErrors.invalidGateway(name, 'it is not marked @Gateway(path)');
  if (typeof record.path !== 'string' || !/^\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/.test(record.path))
    throw RealtimeErrors.invalidGateway(name, `its path must be a plain absolute path such as '/ws'`);
  const options = { ...DEFAULTS, ...record.options };
  for (const key of Object.keys(DEFAULTS) as (keyof GatewayOptions)[]) {
    const value = options[key];
    if (!Number.isSafeInteger(value) || value <= 0)
      throw RealtimeErrors.invalidGatewayOption(name, key, value);
  }
  const methods = gatewayMethods(type);
  const prepare = (property: string | symbol) => prepareMethod(type, instance, property);
  return {
    type,
    name,
    path: record.path,
    options,
    connect: methods.connect.map(prepare),
    disconnect: methods.disconnect.map(prepare),
    messages: new Map([...methods.messages].map(([event, property]) => [event, prepare(property)])),
  };
}

type Reader = (call: GatewayCall) => unknown;

function prepareMethod(type: Class, instance: object, property: string | symbol): GatewayMethod {
  const method = (instance as Record<string | symbol, unknown>)[property];
  if (typeof method !== 'function')
    throw RealtimeErrors.invalidGateway(type.name, `${String(property)} is not a method`);
  const readers: Reader[] = [];
  gatewayParams(type, property).forEach((param, index) => {
    if (param?.kind === 'socket') readers[index] = ({ socket }) => socket;
    if (param?.kind === 'body') {
      const target = param.type;
      if (!target)
        throw RealtimeErrors.invalidGateway(
          type.name,
          `${String(property)}'s @MessageBody() has no class to validate into: give the parameter a class type, or a schema`,
        );
      readers[index] = async ({ data }) => {
        const bound = await bindValue(data ?? {}, target);
        if (!bound.ok) throw new FrameRefusal('validation failed', bound.errors);
        return bound.value;
      };
    }
  });
  // Decorators made by createParamDecorator (`@CurrentUser()`) read the upgrade's context.
  const custom =
    getOwnMetadata<readonly ArgumentSpec[]>(MetadataKey.params, type.prototype as object, property) ?? [];
  for (const spec of custom) {
    const { read } = spec;
    if (spec.source === 'custom' && read) readers[spec.index] = ({ ctx }) => read(ctx, spec.data);
    else if (spec.source === 'ctx') readers[spec.index] = ({ ctx }) => ctx;
  }
  const call = method as (...args: unknown[]) => unknown;
  return async (given) => {
    const args: unknown[] = [];
    for (let index = 0; index < readers.length; index++) args[index] = await readers[index]?.(given);
    return call.apply(instance, args);
  };
}

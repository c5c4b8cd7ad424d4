import { MetadataKey } from '../metadata/keys';
import { defineMetadata } from '../metadata/reflection';
import type { ResourceOptions } from '../routing/resource-table';
import type { ControllerMetadata } from '../routing/route-metadata';

function controllerDecorator(metadata: ControllerMetadata): ClassDecorator {
  return (target) => defineMetadata(MetadataKey.controller, metadata, target);
}

/**
 * Declares a controller whose methods carry route decorators, all under `prefix`.
 *
 * @example
 * @Controller('reports')
 * export class ReportController { @Get(':id') show(ctx: Context) {} }
 */
export function Controller(prefix = ''): ClassDecorator {
  return controllerDecorator({ kind: 'controller', prefix });
}

/**
 * Declares a resource controller: the seven actions (index, create, store, show, edit, update,
 * destroy) become the conventional routes under `path`.
 *
 * @example
 * @Resource('orders', { except: ['destroy'] })
 * export class OrderController { index(ctx: Context) {} ... }
 */
export function Resource(path: string, options: ResourceOptions = {}): ClassDecorator {
  return controllerDecorator({ kind: 'resource', path, api: false, options });
}

/**
 * Declares an API resource controller: like {@link Resource} without the HTML forms (no create, no edit).
 *
 * @example
 * @ApiResource('api/orders')
 * export class OrderApiController { index(ctx: Context) {} ... }
 */
export function ApiResource(path: string, options: ResourceOptions = {}): ClassDecorator {
  return controllerDecorator({ kind: 'resource', path, api: true, options });
}

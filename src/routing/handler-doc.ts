import type { Class } from '../container/token';
import { isApplicationClass } from '../metadata/design-types';
import { MetadataKey } from '../metadata/keys';
import { getMethodParamTypes, getOwnMetadata, prototypeDeclaring } from '../metadata/reflection';
import type { QueryDoc, RouteDoc } from './route-doc';
import type { ParamMetadata } from './route-metadata';

/**
 * What a controller method's parameter decorators tell the OpenAPI document: the `@Body()` class,
 * the `@Query(name)` parameters and the `@Query()` class.
 *
 * @example
 * handlerDoc(controller, 'store'); // { body: CreateOrder, query: [] }
 */
export function handlerDoc(
  instance: object,
  property: string | symbol,
): Pick<RouteDoc, 'body' | 'query' | 'queryClass'> {
  const prototype = prototypeDeclaring(Object.getPrototypeOf(instance) as object, property);
  const params = getOwnMetadata<readonly ParamMetadata[]>(MetadataKey.params, prototype, property) ?? [];
  const types = getMethodParamTypes(prototype, property);
  const query: QueryDoc[] = params
    .filter((param) => param.source === 'query' && param.name !== undefined)
    .sort((a, b) => a.index - b.index)
    .map(({ name = '', fallback }) => ({ name, fallback }));
  const bodyParam = params.find((param) => param.source === 'body');
  const bodyType: unknown = bodyParam && (bodyParam.type ?? types[bodyParam.index]);
  const wholeQuery = params.find((param) => param.source === 'query' && param.name === undefined);
  const queryType: unknown = wholeQuery && (wholeQuery.type ?? types[wholeQuery.index]);
  return {
    body: isApplicationClass(bodyType) ? (bodyType as Class) : undefined,
    query,
    queryClass: isApplicationClass(queryType) ? (queryType as Class) : undefined,
  };
}

/** The tag a controller's operations are listed under: its class name without `Controller`. @example controllerTag('OrderController') // 'Order' */
export function controllerTag(className: string): string {
  return className.replace(/(.)Controller$/, '$1');
}

import type { Class } from '../container/token';
import { isApplicationClass } from '../metadata/design-types';
import { MetadataKey } from '../metadata/keys';
import { getMethodParamTypes, getOwnMetadata, prototypeDeclaring } from '../metadata/reflection';
import type { ParamDoc, QueryDoc, RouteDoc } from './route-doc';
import type { ParamMetadata } from './route-metadata';
import { isStandardSchema } from '../binding/standard-schema';

/**
 * What a controller method's parameter decorators tell the OpenAPI document: the `@Body()` class,
 * the `@Query(name)` parameters, the `@Headers(name)` read, the `@Query()` class and the path
 * parameters read through pipes.
 *
 * @example
 * handlerDoc(controller, 'store'); // { body: CreateOrder, query: [], params: [] }
 */
export function handlerDoc(
  instance: object,
  property: string | symbol,
): Pick<
  RouteDoc,
  'body' | 'query' | 'headers' | 'cookies' | 'queryClass' | 'params' | 'bodySchema' | 'querySchema'
> {
  const prototype = prototypeDeclaring(Object.getPrototypeOf(instance) as object, property);
  const params = getOwnMetadata<readonly ParamMetadata[]>(MetadataKey.params, prototype, property) ?? [];
  const types = getMethodParamTypes(prototype, property);
  const named = (source: ParamMetadata['source']): QueryDoc[] =>
    params
      .filter((param) => param.source === source && param.name !== undefined)
      .sort((a, b) => a.index - b.index)
      .map(({ name = '', fallback, pipes }) => ({ name, fallback, ...(pipes?.length ? { pipes } : {}) }));
  const query = named('query');
  const headers = named('headers');
  const cookies = named('cookies');
  const piped: ParamDoc[] = params
    .filter(
      (param) =>
        param.source === 'param' && param.name !== undefined && (param.pipes?.length || param.schema),
    )
    .map(({ name = '', pipes = [], schema }) => ({ name, pipes, ...(schema ? { schema } : {}) }));
  const bodyParam = params.find((param) => param.source === 'body');
  const bodyType: unknown = bodyParam && !bodyParam.schema && (bodyParam.type ?? types[bodyParam.index]);
  const wholeQuery = params.find((param) => param.source === 'query' && param.name === undefined);
  const queryType: unknown = wholeQuery && !wholeQuery.schema && (wholeQuery.type ?? types[wholeQuery.index]);
  return {
    body: isApplicationClass(bodyType) ? (bodyType as Class) : undefined,
    query,
    ...(headers.length > 0 ? { headers } : {}),
    ...(cookies.length > 0 ? { cookies } : {}),
    queryClass: isApplicationClass(queryType) ? (queryType as Class) : undefined,
    params: piped,
    ...(bodyParam?.schema ? { bodySchema: bodyParam.schema } : {}),
    ...(wholeQuery?.schema ? { querySchema: wholeQuery.schema } : {}),
  };
}

/** The tag a controller's operations are listed under: its class name without `Controller`. @example controllerTag('OrderController') // 'Order' */
export function controllerTag(className: string): string {
  return className.replace(/(.)Controller$/, '$1');
}

/**
 * What `@Returns()` tells the OpenAPI document of a route's answer: the class, or the Standard
 * Schema; nothing when the route has none, so a resource's `output` stays.
 *
 * @example
 * returnsDoc(hooks.metadata); // { output: ArticleView }
 */
export function returnsDoc(
  metadata: ReadonlyMap<unknown, unknown>,
): Pick<RouteDoc, 'output' | 'outputSchema'> {
  const returns = metadata.get(MetadataKey.returns);
  if (isStandardSchema(returns)) return { output: undefined, outputSchema: returns };
  if (typeof returns === 'function') return { output: returns as Class };
  return {};
}

import { MetadataKey } from '../metadata/keys';

/**
 * The status a route's returned value answers with, decided once per route at boot: its
 * `@HttpCode`, else 201 for a POST route (something was created, as NestJS answers) and 200 for
 * any other. A GET route serves HEAD with the same status.
 *
 * @example
 * answerStatus('POST', new Map()); // 201
 */
export function answerStatus(method: string, metadata: ReadonlyMap<unknown, unknown> | undefined): number {
  return declaredStatus(metadata) ?? (method === 'POST' ? 201 : 200);
}

/** The status a route's `@HttpCode` names, if it has one. @example declaredStatus(route.hooks?.metadata) */
export function declaredStatus(metadata: ReadonlyMap<unknown, unknown> | undefined): number | undefined {
  return metadata?.get(MetadataKey.httpCode) as number | undefined;
}

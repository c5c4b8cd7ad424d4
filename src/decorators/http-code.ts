import { RoutingErrors } from '../errors/routing-errors';
import { MetadataKey } from '../metadata/keys';
import { SetMetadata, type ClassOrMethodDecorator } from './hooks';

/**
 * Sets the status a handler's returned value answers with, over the default (201 for POST, 200
 * otherwise); a handler that returns nothing answers it with no body, so `@HttpCode(204)` suits
 * a handler that only acts. The OpenAPI document states it. On a class it applies to every route.
 *
 * @example
 * @HttpCode(204) @Delete(':id') async remove(@Param('id') id: string) { await this.orders.remove(id); }
 */
export function HttpCode(status: number): ClassOrMethodDecorator {
  if (!Number.isInteger(status) || status < 200 || status > 299) throw RoutingErrors.invalidHttpCode(status);
  return SetMetadata(MetadataKey.httpCode, status);
}

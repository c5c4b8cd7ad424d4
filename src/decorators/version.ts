import { MetadataKey } from '../metadata/keys';
import { SetMetadata, type ClassOrMethodDecorator } from './hooks';

/**
 * Serves a controller's routes (or one handler's) as the API version(s) given, under the option
 * `versioning`: `/v2/orders`, `Accept-Version: 2` or `Accept: application/json;v=2`. A method's
 * `@Version` replaces its class's; routes without one answer whatever version is asked.
 *
 * @example
 * @Version('2') @Controller('orders') class OrderV2Controller {}
 * @Version(['1', '2']) @Get('health') health() {}
 */
export function Version(version: string | readonly string[]): ClassOrMethodDecorator {
  return SetMetadata(MetadataKey.version, typeof version === 'string' ? [version] : [...version]);
}

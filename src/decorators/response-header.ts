import { MetadataKey } from '../metadata/keys';
import { getOwnMetadata } from '../metadata/reflection';
import type { ResponseHeaders } from '../routing/response-headers';
import { SetMetadata } from './hooks';

/**
 * Sets the response header `name` to `value` on the handler's answers, as NestJS's `@Header` does:
 * decided once at boot, set before the handler runs (a header it sets itself wins).
 *
 * @example
 * @Header('Cache-Control', 'public, max-age=60') @Get() index() { return []; }
 */
export function Header(name: string, value: string): MethodDecorator {
  return (prototype, property) => {
    const own = getOwnMetadata<ReadonlyMap<unknown, unknown>>(MetadataKey.custom, prototype, property);
    const declared = (own?.get(MetadataKey.responseHeaders) as ResponseHeaders | undefined) ?? [];
    // Decorators apply from the bottom up: the one above comes first.
    SetMetadata(MetadataKey.responseHeaders, [[name, value], ...declared])(prototype, property);
  };
}

/**
 * Sets the `Cache-Control` of the handler's answers (default: none), so that browsers and caches in
 * front may keep them; error answers say `no-store` all the same.
 *
 * @example
 * @CacheControl('public, max-age=60') @Get() index() { return this.products.all(); }
 */
export function CacheControl(value: string): MethodDecorator {
  return Header('Cache-Control', value);
}

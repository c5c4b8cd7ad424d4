import type { Class } from '../container/token';
import type { CanActivate, HookEntry } from '../hooks/hook-types';
import { MetadataKey } from '../metadata/keys';
import { defineMetadata, getMetadata } from '../metadata/reflection';

/**
 * How a client proves who it is, as an OpenAPI 3.1 Security Scheme Object: a bearer token
 * (`{ type: 'http', scheme: 'bearer' }`), an API key in a header, query or cookie (a session cookie
 * is one), OAuth 2 or OpenID Connect.
 *
 * @example
 * const session: SecurityScheme = { type: 'apiKey', in: 'cookie', name: 'session' };
 */
export type SecurityScheme =
  | {
      readonly type: 'http';
      readonly scheme: string;
      readonly bearerFormat?: string;
      readonly description?: string;
    }
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly name: string;
      readonly description?: string;
    }
  | {
      readonly type: 'oauth2';
      readonly flows: Readonly<Record<string, unknown>>;
      readonly description?: string;
    }
  | { readonly type: 'openIdConnect'; readonly openIdConnectUrl: string; readonly description?: string };

/** A guard's security scheme, under the name the document lists it by. */
export interface NamedSecurityScheme {
  readonly name: string;
  readonly scheme: SecurityScheme;
}

// OpenAPI's rule for the keys of `components`.
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const SCHEME_TYPES = new Set(['http', 'apiKey', 'oauth2', 'openIdConnect']);

/**
 * States how a guard authenticates: the OpenAPI document lists `scheme` under `name` in
 * `components.securitySchemes`, and every operation the guard protects requires it and documents
 * its 401 answer. The guard itself decides as before; this only describes it.
 *
 * @example
 * @Authenticates('bearerToken', { type: 'http', scheme: 'bearer' })
 * @Injectable()
 * export class ApiTokenGuard implements CanActivate { canActivate(ctx: Context) { ... } }
 */
export function Authenticates(name: string, scheme: SecurityScheme): ClassDecorator {
  if (typeof name !== 'string' || !COMPONENT_NAME.test(name))
    throw new TypeError(
      `@Authenticates(name, scheme): the name ${JSON.stringify(name)} is not a valid OpenAPI component name; use letters, digits, '.', '-' and '_', such as 'bearerToken'`,
    );
  if (typeof scheme !== 'object' || scheme === null || !SCHEME_TYPES.has(scheme.type))
    throw new TypeError(
      `@Authenticates('${name}', scheme): the scheme needs a type of http, apiKey, oauth2 or openIdConnect, such as { type: 'http', scheme: 'bearer' }`,
    );
  return (target) => {
    defineMetadata(MetadataKey.securityScheme, { name, scheme } satisfies NamedSecurityScheme, target);
  };
}

/** The security scheme a guard (a class, or an instance of one) states with `@Authenticates`, if any. @example securitySchemeOf(ApiTokenGuard) */
export function securitySchemeOf(guard: HookEntry<CanActivate>): NamedSecurityScheme | undefined {
  const type: unknown = typeof guard === 'function' ? guard : (guard as object).constructor;
  return typeof type === 'function'
    ? getMetadata<NamedSecurityScheme>(MetadataKey.securityScheme, type as Class)
    : undefined;
}

import type { IncomingMessage } from 'node:http';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import { rawHeader } from './raw-headers';

/**
 * Where a request names the API version it asks for (option `versioning`): the path (`/v2/orders`),
 * a header (`Accept-Version: 2`) or a parameter of the media type (`Accept: application/json;v=2`).
 * `defaultVersion` is the version of a request that names none.
 */
export type VersioningOptions =
  | { readonly type: 'uri'; readonly prefix?: string; readonly defaultVersion?: string }
  | { readonly type: 'header'; readonly header: string; readonly defaultVersion?: string }
  | { readonly type: 'media'; readonly key: string; readonly defaultVersion?: string };

/** {@link VersioningOptions} checked, with what the router and the dispatcher need of it. */
export interface Versioning {
  readonly type: VersioningOptions['type'];
  /** The path segment before the version, for `uri` (default `v`: `/v2/...`). */
  readonly prefix: string;
  /** The header that names the version (`header`), or the media type's parameter (`media`). */
  readonly name: string;
  readonly defaultVersion: string | undefined;
  /**
   * The version a request asks for (its header's or its `Accept`'s, else `defaultVersion`);
   * undefined for `uri`, whose versions are in the path. @example versioning.versionOf?.(req)
   */
  readonly versionOf: ((req: IncomingMessage) => string | undefined) | undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z._-]*$/;

/**
 * The application's versioning, or undefined where the option is not given; an option of the wrong
 * kind is a boot error naming it.
 *
 * @example resolveVersioning({ type: 'header', header: 'Accept-Version' })
 */
export function resolveVersioning(options: VersioningOptions | undefined): Versioning | undefined {
  if (options === undefined) return undefined;
  // Read as what it may be: a JavaScript caller can pass anything.
  const {
    type,
    prefix: givenPrefix,
    header: givenHeader,
    key: givenKey,
  } = options as {
    type?: unknown;
    prefix?: unknown;
    header?: unknown;
    key?: unknown;
  };
  const defaultVersion = options.defaultVersion;
  if (defaultVersion !== undefined) checkVersion(defaultVersion, 'versioning.defaultVersion');
  if (type === 'uri') {
    const prefix = givenPrefix ?? 'v';
    if (typeof prefix !== 'string' || (prefix !== '' && !VERSION.test(prefix)))
      throw LifecycleErrors.invalidOption('versioning.prefix', prefix, "a path segment's start such as 'v'");
    return { type, prefix, name: '', defaultVersion, versionOf: undefined };
  }
  if (type === 'header') {
    const header = checkName(givenHeader, 'versioning.header', "a header name such as 'Accept-Version'");
    const lower = header.toLowerCase();
    const versionOf = (req: IncomingMessage) => rawHeader(req.rawHeaders, lower)?.trim() || defaultVersion;
    return { type, prefix: '', name: header, defaultVersion, versionOf };
  }
  if (type === 'media') {
    const key = checkName(givenKey, 'versioning.key', "a media type parameter such as 'v'");
    // `application/json;v=2`, in any of the types `Accept` lists.
    const parameter = new RegExp(`;\\s*${key.replace(/[.*+?^$|]/g, '\\$&')}\\s*=\\s*"?([^;,"\\s]+)`, 'i');
    const versionOf = (req: IncomingMessage) => {
      const accept = rawHeader(req.rawHeaders, 'accept');
      return (accept === undefined ? undefined : parameter.exec(accept)?.[1]) ?? defaultVersion;
    };
    return { type, prefix: '', name: key, defaultVersion, versionOf };
  }
  throw LifecycleErrors.invalidOption(
    'versioning',
    options,
    "{ type: 'uri' }, { type: 'header', header } or { type: 'media', key }",
  );
}

/** Checks a version as `@Version` or `defaultVersion` gives it. @example checkVersion('2', '@Version of OrderController') */
export function checkVersion(version: unknown, where: string): string {
  if (typeof version !== 'string' || !VERSION.test(version))
    throw LifecycleErrors.invalidOption(where, version, "a version such as '2' or '2024-06'");
  return version;
}

function checkName(value: unknown, option: string, expected: string): string {
  if (typeof value !== 'string' || !TOKEN.test(value))
    throw LifecycleErrors.invalidOption(option, value, expected);
  return value;
}

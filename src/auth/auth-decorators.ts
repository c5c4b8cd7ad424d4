import { SetMetadata, type ClassOrMethodDecorator } from '../decorators/hooks';
import { createParamDecorator } from '../decorators/params';
import type { PipeEntry } from '../decorators/params';
import { MetadataKey } from '../metadata/keys';

/**
 * Opens a controller, or one handler, to anonymous callers: no strategy runs, and the OpenAPI
 * document lists no security for it.
 *
 * @example
 * @Public() @Get('status') status() { return { ok: true }; }
 */
export function Public(): ClassOrMethodDecorator {
  return SetMetadata(MetadataKey.authPublic, true);
}

/**
 * Names the strategies (of `AuthModule.forRoot`'s) that may authenticate a controller's routes, or
 * one handler's, in place of the default: the first that recognises the request's credentials
 * decides. Unknown names stop the boot.
 *
 * @example
 * @Authenticated('jwt', 'token') @ApiResource('api/orders') class OrderApi {}
 */
export function Authenticated(...strategies: string[]): ClassOrMethodDecorator {
  if (strategies.length === 0 || strategies.some((name) => typeof name !== 'string' || name === ''))
    throw new TypeError(
      `@Authenticated(...strategies) takes one or more strategy names, such as @Authenticated('jwt')`,
    );
  return SetMetadata(MetadataKey.authStrategies, strategies);
}

/**
 * Injects the user the request was authenticated as (`ctx.user`): the application's `AuthUser`.
 *
 * @example
 * @Get('me') me(@CurrentUser() user: AuthUser) { return user; }
 */
export const CurrentUser: (data?: undefined, ...pipes: PipeEntry[]) => ParameterDecorator =
  createParamDecorator((ctx) => ctx.user);

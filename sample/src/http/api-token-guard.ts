import { timingSafeEqual } from 'node:crypto';
import {
  Authenticates,
  HttpError,
  Inject,
  Injectable,
  InjectionToken,
  type CanActivate,
  type Context,
} from 'keel';

/** The bearer token the JSON API's writes need (`API_TOKEN`); undefined refuses every write. */
export const API_TOKEN = new InjectionToken<string | undefined>('API_TOKEN');

/**
 * Asks the routes it guards (the JSON API's writes) for `Authorization: Bearer <API_TOKEN>`: 401
 * without it, with a wrong one, or when the application has no token at all. The OpenAPI document
 * lists the scheme on those routes.
 */
@Authenticates('bearerToken', {
  type: 'http',
  scheme: 'bearer',
  description: 'The API_TOKEN the server was started with',
})
@Injectable()
export class ApiTokenGuard implements CanActivate {
  readonly #expected: Buffer | undefined;

  constructor(@Inject(API_TOKEN) token: string | undefined) {
    this.#expected = token ? Buffer.from(token) : undefined;
  }

  canActivate(ctx: Context): boolean {
    if (!this.#expected) throw refuse(ctx, 'writes are disabled: the server has no API_TOKEN');
    const given = /^Bearer (.+)$/i.exec(ctx.req.get('authorization') ?? '')?.[1];
    if (!given || !this.#matches(Buffer.from(given))) throw refuse(ctx, 'missing or wrong bearer token');
    return true;
  }

  // Compared in constant time, so the answer's timing tells nothing of how much of a guess was right.
  #matches(given: Buffer): boolean {
    const expected = this.#expected as Buffer;
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function refuse(ctx: Context, message: string): HttpError {
  ctx.header('WWW-Authenticate', 'Bearer realm="orders"');
  return new HttpError(401, message);
}

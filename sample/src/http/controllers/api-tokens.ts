import {
  Auth,
  Authenticated,
  Body,
  Controller,
  Delete,
  HttpError,
  Post,
  Public,
  RateLimit,
  SkipCsrf,
  type Context,
} from 'keel';
import { OperatorAccount } from '../../auth/operator';
import { TokenRequest } from '../../auth/token-request';

/** How long a token issued by `POST /api/tokens` opens the JSON API. */
const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The JSON API's tokens: the operator trades their email and password for one (kept hashed in the
 * database, so every replica knows it, and revoked on every replica at once). No cookie opens
 * it, so it asks for no CSRF token, as the rest of the JSON API.
 */
@SkipCsrf()
@Controller('api/tokens')
export class ApiTokenController {
  constructor(
    private readonly operator: OperatorAccount,
    private readonly auth: Auth,
  ) {}

  // POST /api/tokens {"email", "password", "name"?} → 201 {"id", "token", "expiresAt"}
  @Public()
  @RateLimit('logins')
  @Post()
  async issue(@Body() request: TokenRequest) {
    const user = await this.operator.logIn(request.email, request.password);
    if (!user) throw new HttpError(401, 'wrong email or password');
    const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_MS);
    const { id, token } = await this.auth.tokens.issue(user, { name: request.name ?? 'api', expiresAt });
    return { id, token, expiresAt: expiresAt.toISOString() };
  }

  // DELETE /api/tokens/:id → 204: that token opens nothing any more, on any replica
  @Authenticated('token')
  @Delete(':id')
  async revoke(ctx: Context) {
    const id = ctx.param('id');
    // Token ids are UUIDs: anything else names no token, and never reaches the database.
    if (!UUID.test(id) || !(await this.auth.tokens.revoke(id)))
      throw new HttpError(404, `token ${id} not found`);
    ctx.noContent();
  }
}

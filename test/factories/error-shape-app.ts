import { IsEmail } from 'class-validator';
import { DataSource } from 'typeorm';
import {
  AuthModule,
  Body,
  Controller,
  DatabaseModule,
  Get,
  HttpError,
  Module,
  OpenApiModule,
  Post,
  Public,
  RateLimit,
  RateLimitModule,
  UseGuards,
  jwt,
  type Application,
  type Context,
  type DescribedError,
  type ErrorsOption,
  type Logger,
} from 'keel';
import { bootApp } from './app';
import { closedPort } from './test-databases';

// An application that meets every error condition keel shapes, for the tests of option `errors`:
// a body to validate, a handler's own errors, a guard, a rate limit, a database that is away, and
// a route that needs a JWT.

class Signup {
  @IsEmail() email!: string;
}

class Deny {
  canActivate() {
    return false;
  }
}

@Public()
@Controller('things')
class ThingController {
  constructor(private readonly database: DataSource) {}

  @Get()
  index() {
    return [];
  }

  @Post()
  store(@Body() input: Signup) {
    return input;
  }

  @Get('missing')
  missing(ctx: Context) {
    ctx.error(404, 'thing not found');
  }

  @Get('picky')
  picky() {
    throw new HttpError(406, 'only JSON here');
  }

  @Get('boom')
  boom() {
    throw new Error('a secret');
  }

  @UseGuards(Deny)
  @Get('guarded')
  guarded() {
    return {};
  }

  @RateLimit({ limit: 1, windowS: 60 })
  @Get('limited')
  limited() {
    return {};
  }

  @Get('stored')
  async stored() {
    return this.database.query('SELECT 1');
  }
}

@Controller('me')
class MeController {
  @Get()
  me() {
    return {};
  }
}

const SECRET = 'a-secret-of-at-least-thirty-two-bytes!!';

/** Boots the application with `errors` (and load shedding that refuses everything, when asked), listening on a free port. */
export async function serveErrorShapes(
  errors: ErrorsOption,
  options: { shedding?: boolean; logger?: Logger } = {},
): Promise<Served> {
  @Module({
    imports: [
      DatabaseModule.forRoot({
        type: 'postgres',
        url: `postgres://postgres@127.0.0.1:${await closedPort()}/test`,
      }),
      AuthModule.forRoot({
        default: 'jwt',
        strategies: { jwt: jwt({ secret: SECRET }) },
        user: { useFactory: () => (claims) => ({ id: String(claims.sub), name: 'n' }) },
      }),
      RateLimitModule.forRoot(),
      OpenApiModule.forRoot({ title: 'Things', version: '1.0.0' }),
    ],
    controllers: [ThingController, MeController],
  })
  class AppModule {}
  const app = await bootApp(AppModule, {
    errors,
    ...(options.shedding ? { loadShedding: { maxRssBytes: 1 } } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const { url } = await app.listen(0, '127.0.0.1');
  return { app, url };
}

export interface Served {
  readonly app: Application;
  readonly url: string;
}

// RealWorld's error shape: every message under `errors.body`, a validation failure's by field.
export const realWorld = (error: DescribedError) => ({ errors: error.fields ?? { body: [error.message] } });
export const REAL_WORLD_SCHEMA = {
  type: 'object',
  properties: {
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
  required: ['errors'],
};

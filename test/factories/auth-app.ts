import { Column, Entity, PrimaryGeneratedColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import {
  Auth,
  AuthModule,
  AuthTables1764547200000,
  Can,
  Controller,
  Ctx,
  CurrentUser,
  DatabaseModule,
  Get,
  Injectable,
  Module,
  Policy,
  Post,
  Public,
  Put,
  SessionModule,
  SkipCsrf,
  apiTokens,
  session,
  type Application,
  type AuthUser,
  type Class,
  type Context,
} from 'keel';
import { DataSource } from 'typeorm';
import { bootApp } from './app';
import { eventually } from './eventually';
import { captureLog, type LogCapture } from './log';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';
import { postgresUrl } from './test-databases';

/** An article of the policy tests: only its author may update it. */
@Entity('articles')
export class Article {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'author_id', type: 'text' }) authorId!: string;
  @Column({ type: 'text' }) title!: string;
}

class CreateArticles1764547300000 implements MigrationInterface {
  readonly name = 'CreateArticles1764547300000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE articles (id serial PRIMARY KEY, author_id text NOT NULL, title text NOT NULL)',
    );
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE articles');
  }
}

/** The users every replica knows: Ada (1) and Grace (2). */
export const ADA: AuthUser = { id: '1', name: 'Ada' };
export const GRACE: AuthUser = { id: '2', name: 'Grace' };
const USERS: Readonly<Record<string, AuthUser>> = { '1': ADA, '2': GRACE };

/** How many times the article policy was asked, by every replica. */
export const policyCalls = { count: 0 };

@Policy(Article)
class ArticlePolicy {
  update(user: AuthUser, article: Article): boolean {
    policyCalls.count += 1;
    return article.authorId === user.id;
  }
}

@Injectable()
class Users {
  find(id: string): AuthUser | undefined {
    return USERS[id];
  }
}

@Controller('')
class AccountController {
  constructor(private readonly auth: Auth) {}

  @Get('me')
  me(@CurrentUser() user: AuthUser) {
    return user;
  }

  @Public()
  @Get('login')
  form(@Ctx() ctx: Context) {
    const { csrfToken } = ctx.res.locals as { csrfToken: string };
    ctx.res.type('html').send(`<form><input name="_csrf" value="${csrfToken}"></form>`);
  }

  @Public()
  @Post('login')
  async login(@Ctx() ctx: Context) {
    const user = USERS[ctx.form('user', '')];
    if (!user) return ctx.error(422, 'no such user');
    await this.auth.login(ctx, user);
    return { loggedIn: user.name };
  }

  @Post('logout')
  async logout(@Ctx() ctx: Context) {
    await this.auth.logout(ctx);
    ctx.noContent();
  }
}

@SkipCsrf()
@Controller('articles')
class ArticleController {
  @Can('update', Article, { from: 'id' })
  @Put(':id')
  update() {
    return { updated: true };
  }
}

/** One replica of the authentication test application, and what it logged. */
export interface AuthReplica {
  readonly app: Application;
  readonly url: string;
  readonly log: LogCapture;
  readonly auth: Auth;
}

/**
 * Boots a replica on `databaseUrl` with `session()` and `apiTokens()` (the default, tried in that
 * order), its tables made by keel's migration, and `providers` beside its own (a gateway), and
 * waits for the migrations to have run.
 */
export async function startAuthReplica(
  databaseUrl: string,
  { providers = [] }: { providers?: Class[] } = {},
): Promise<AuthReplica> {
  @Module({
    imports: [
      DatabaseModule.forRoot({
        type: 'postgres',
        url: databaseUrl,
        entities: [Article],
        migrations: [AuthTables1764547200000, CreateArticles1764547300000],
        migrationsRun: true,
      }),
      DatabaseModule.forFeature([Article]),
      SessionModule.forRoot({ secret: () => 'a session secret the replicas share' }),
      AuthModule.forRoot({
        default: ['session', 'token'],
        strategies: { session: session(), token: apiTokens() },
        user: { inject: [Users], useFactory: (users: Users) => (claims) => users.find(claims.sub) },
      }),
    ],
    controllers: [AccountController, ArticleController],
    providers: [Users, ArticlePolicy, ...providers],
  })
  class AppModule {}
  const log = captureLog('debug');
  const app = await bootApp(AppModule, { logger: log.logger });
  const { url } = await app.listen(0, '127.0.0.1');
  const dataSource = app.get(DataSource);
  await eventually(
    () => dataSource.isInitialized && log.entries().some((entry) => entry.msg === 'migrations up to date'),
    {
      within: 20_000,
    },
  );
  return { app, url, log, auth: app.get(Auth) };
}

/** Two replicas of the authentication application on one database of their own, for a describe block. */
export interface AuthReplicaPair {
  readonly database: ScratchDatabase;
  readonly a: AuthReplica;
  readonly b: AuthReplica;
}

/**
 * Starts two replicas on a scratch database before the block's tests and stops them (dropping the
 * database) after; the returned object is filled in once `beforeAll` has run.
 *
 * @example
 * const replicas = useTwoAuthReplicas();
 * test('...', async () => { await fetch(`${replicas.a.url}/me`); });
 */
export function useTwoAuthReplicas(): AuthReplicaPair {
  const pair = {} as { database: ScratchDatabase; a: AuthReplica; b: AuthReplica };
  beforeAll(async () => {
    pair.database = await createScratchDatabase(postgresUrl());
    pair.a = await startAuthReplica(pair.database.url);
    pair.b = await startAuthReplica(pair.database.url);
  });
  afterAll(async () => {
    await pair.a?.app.close();
    await pair.b?.app.close();
    await pair.database?.drop();
  });
  return pair;
}

import {
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';

/**
 * The sample's settings: read from the environment and `.env` (the environment wins), converted
 * and validated at start, before anything opens.
 */
export class SampleConfig {
  /** The port it serves on; 0 picks a free one. */
  @IsInt() @Min(0) @Max(65535) PORT = 8080;

  /**
   * The address it listens on, its metrics port too: unset or empty, every interface (what a
   * container needs); `127.0.0.1` keeps it to this machine.
   */
  @IsOptional() @IsString() HOST?: string;

  /** The port of its Prometheus metrics (`GET /metrics`), apart from the public one; 0 picks a free one. */
  @IsInt() @Min(0) @Max(65535) METRICS_PORT = 9464;

  /** A PostgreSQL server to use; unset or empty, the embedded database runs instead. */
  @ValidateIf((config: SampleConfig) => Boolean(config.DATABASE_URL?.trim()))
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  /**
   * A Redis the deployment runs beside the sample; set, readiness checks it (`"redis"` in its answer).
   * Required with `REALTIME_VIA=redis`.
   */
  @ValidateIf((config: SampleConfig) => config.REALTIME_VIA === 'redis' || Boolean(config.REDIS_URL?.trim()))
  @Matches(/^rediss?:\/\//, {
    message: ({ value }) =>
      typeof value === 'string' && value.trim()
        ? 'REDIS_URL must be a redis:// or rediss:// URL'
        : 'REDIS_URL must be set (REALTIME_VIA is redis)',
  })
  REDIS_URL?: string;

  /**
   * How the live list's events reach every replica: `postgres` through the database (nothing more
   * to run), or `redis` through the Redis of `REDIS_URL` (an event costs a script there rather than
   * a database transaction).
   */
  @IsIn(['postgres', 'redis'], { message: 'REALTIME_VIA must be postgres or redis' })
  REALTIME_VIA: 'postgres' | 'redis' = 'postgres';

  /**
   * With `REALTIME_VIA=redis`, what the live list's keys in Redis start with, so that deployments
   * sharing one Redis never read each other's events. Default: keel's `keel:realtime:`.
   */
  @IsOptional() @IsString() REALTIME_KEY_PREFIX?: string;

  /**
   * The operator's account: the email and password that log in to the HTML pages (`/login`) and
   * obtain the JSON API's tokens (`POST /api/tokens`). Unset, nobody can log in, so every write
   * is refused (reads stay open).
   */
  @ValidateIf((config: SampleConfig) => Boolean(config.ADMIN_PASSWORD))
  @IsEmail({}, { message: 'ADMIN_EMAIL must be an email address (ADMIN_PASSWORD is set)' })
  ADMIN_EMAIL?: string;

  /** The operator's password, at least 12 characters; it is kept in memory only as a scrypt hash. */
  @ValidateIf((config: SampleConfig) => Boolean(config.ADMIN_EMAIL))
  @IsString({ message: 'ADMIN_PASSWORD must be set (ADMIN_EMAIL is set)' })
  @MinLength(12)
  ADMIN_PASSWORD?: string;

  /**
   * How many writes (POST, PUT, PATCH, DELETE) one client address may make to the JSON API per
   * minute, counted in the database, so replicas share the budget. Past it: 429 with `Retry-After`.
   */
  @IsInt() @Min(1) API_WRITES_PER_MINUTE = 60;

  /**
   * How many logins (`POST /login`, `POST /api/tokens`) one client address may try per minute, so
   * that a password is not guessed at the speed of the network. Past it: 429 with `Retry-After`.
   */
  @IsInt() @Min(1) LOGINS_PER_MINUTE = 10;

  /**
   * The key that signs the HTML pages' sessions, shared by the replicas. Unset, a random one is used
   * (sessions end with the process), except in production, where the start is refused.
   */
  @IsOptional() @IsString() SESSION_SECRET?: string;

  /** Where the embedded database keeps its files. Default: `sample/.data/postgres`. */
  @IsOptional() @IsString() DATA_DIR?: string;

  /**
   * How long a stopping instance keeps serving, answering 503 on readiness, so that the
   * orchestrator takes it out of the load balancer before it stops accepting (the manifests set 5 s).
   */
  @IsInt() @Min(0) SHUTDOWN_DELAY_MS = 0;

  /** `production` hides the database driver's own words from readiness answers (the log keeps them). */
  @IsOptional() @IsString() NODE_ENV?: string;
}

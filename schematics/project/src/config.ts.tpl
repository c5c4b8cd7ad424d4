import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

/**
 * The application's settings, from the environment and `.env` (the environment wins), converted and
 * checked at boot: a wrong one stops the start, naming the variable and its rule, never its value.
 * Inject it anywhere: `constructor(private readonly env: Env) {}`.
 */
export class Env {
  @IsInt() @Min(0) @Max(65535) PORT = 8080;
  /** The port of the Prometheus metrics (`GET /metrics`), apart from the public one. */
  @IsInt() @Min(0) @Max(65535) METRICS_PORT = 9464;
  /** A PostgreSQL server; without it, the embedded database. */
  @IsOptional() @IsString() DATABASE_URL?: string;
  /** Where the embedded database keeps its files. */
  @IsString() DATA_DIR = '.data/postgres';
  /** How long a stopping instance keeps serving, readiness at 503 (the manifests in k8s/ set 5 s). */
  @IsInt() @Min(0) SHUTDOWN_DELAY_MS = 0;
  @IsIn(['development', 'test', 'production']) NODE_ENV = 'development';
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables of `apiTokens()` and `session()`, as a TypeORM migration keel ships: list it in the
 * `DataSource`'s `migrations`, and `migration:run` (or `migrationsRun: true`) creates them. Tokens
 * and session ids are kept as their SHA-256 only: a copy of the table opens nothing. PostgreSQL
 * (and the embedded database).
 *
 * @example
 * DatabaseModule.forRoot({ type: 'postgres', url, migrations: [AuthTables, ...own], migrationsRun: true })
 */
export class AuthTables1764547200000 implements MigrationInterface {
  readonly name = 'AuthTables1764547200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE keel_api_tokens (
      id uuid PRIMARY KEY,
      user_id text NOT NULL,
      name text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      abilities jsonb NOT NULL DEFAULT '[]',
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query('CREATE INDEX keel_api_tokens_user_id ON keel_api_tokens (user_id)');
    await queryRunner.query(`CREATE TABLE keel_sessions (
      id_hash text PRIMARY KEY,
      user_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await queryRunner.query('CREATE INDEX keel_sessions_user_id ON keel_sessions (user_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE keel_sessions');
    await queryRunner.query('DROP TABLE keel_api_tokens');
  }
}

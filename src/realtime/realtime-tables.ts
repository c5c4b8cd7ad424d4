import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The table of `Broadcast`'s events, as a TypeORM migration keel ships: every event published on a
 * channel, kept for the replay window (then pruned), so that a client reconnecting to any replica
 * with `Last-Event-ID` gets what it missed. PostgreSQL (and the embedded database).
 *
 * @example
 * DatabaseModule.forRoot({ type: 'postgres', url, migrations: [RealtimeTables1764633600000, ...own], migrationsRun: true })
 */
export class RealtimeTables1764633600000 implements MigrationInterface {
  readonly name = 'RealtimeTables1764633600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE keel_realtime_events (
      id bigserial PRIMARY KEY,
      channel text NOT NULL,
      event text NOT NULL,
      data jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(
      'CREATE INDEX keel_realtime_events_channel ON keel_realtime_events (channel, id)',
    );
    await queryRunner.query(
      'CREATE INDEX keel_realtime_events_created_at ON keel_realtime_events (created_at)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE keel_realtime_events');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class {{className}} implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
{{up}}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
{{down}}
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

// Written by `migration:generate AddOrderInternalNote`, without the schema diff's drop of the
// quantity CHECK, which the entity does not declare and the table keeps.
export class AddOrderInternalNote1795814984841 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "internal_note" character varying(200) NOT NULL DEFAULT ''`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "internal_note"`);
  }
}

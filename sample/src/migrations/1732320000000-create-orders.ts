import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOrders1732320000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "orders" (
        "id" SERIAL PRIMARY KEY,
        "customer" VARCHAR(80) NOT NULL,
        "product" VARCHAR(80) NOT NULL,
        "quantity" INTEGER NOT NULL CHECK ("quantity" > 0),
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}

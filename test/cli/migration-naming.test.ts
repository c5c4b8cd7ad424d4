import { migrationNames } from '../../src/cli/migration-naming';
import { renderMigration } from '../../src/cli/schematic';

describe('migrationNames', () => {
  test.each([
    ['AddOrderNote', { className: 'AddOrderNote1700000000000', fileName: '1700000000000-add-order-note' }],
    ['add-order-note', { className: 'AddOrderNote1700000000000', fileName: '1700000000000-add-order-note' }],
    ['add_SKU_index', { className: 'AddSKUIndex1700000000000', fileName: '1700000000000-add-sku-index' }],
    ['delete', { className: 'Delete1700000000000', fileName: '1700000000000-delete' }],
  ])('%s', (input, names) => {
    expect(migrationNames(input, 1_700_000_000_000)).toEqual(names);
  });

  test.each([
    ['', 'it is empty'],
    ['9lives', 'it does not start with a letter'],
    ['../escape', 'it is a path, not a name'],
    ['add note', 'it contains white space'],
    ['add$note', 'it has characters other than letters, digits, - and _'],
  ])('%j is refused with E_INVALID_NAME: %s', (input, problem) => {
    expect(() => migrationNames(input, 1_700_000_000_000)).toThrow(
      expect.objectContaining({
        code: 'E_INVALID_NAME',
        message: expect.stringContaining(problem) as unknown,
      }),
    );
  });
});

describe('renderMigration', () => {
  test('an empty migration says where its statements go', () => {
    expect(renderMigration({ className: 'AddNote1700000000000', up: [], down: [] })).toBe(
      [
        "import type { MigrationInterface, QueryRunner } from 'typeorm';",
        '',
        'export class AddNote1700000000000 implements MigrationInterface {',
        '  async up(queryRunner: QueryRunner): Promise<void> {',
        '    // The schema change: await queryRunner.query(`ALTER TABLE "orders" ADD "note" text`);',
        '  }',
        '',
        '  async down(queryRunner: QueryRunner): Promise<void> {',
        '    // What undoes up(): await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "note"`);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  test('statements become template literals, escaped, with their parameters', () => {
    const source = renderMigration({
      className: 'Odd1700000000000',
      up: [{ sql: 'COMMENT ON TABLE "t" IS \'a `tick` and ${x} and \\\\\'' }],
      down: [{ sql: 'DELETE FROM "t" WHERE "name" = $1', parameters: ['x'] }],
    });
    expect(source).toContain(
      '    await queryRunner.query(`COMMENT ON TABLE "t" IS \'a \\`tick\\` and \\${x} and \\\\\\\\\'`);',
    );
    expect(source).toContain('    await queryRunner.query(`DELETE FROM "t" WHERE "name" = $1`, ["x"]);');
  });
});

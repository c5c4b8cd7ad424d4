import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ControllerKind } from './controller-kinds';
import type { ControllerNames } from './naming';

// The same from src/cli (tests) and dist/cli (the program): both sit two levels below the package.
const SCHEMATICS = path.join(__dirname, '..', '..', 'schematics');

/**
 * Fills `{{placeholder}}`s in `template` from `values`; a placeholder without a value throws, so a
 * template can never leave braces in the generated code.
 *
 * @example
 * renderTemplate('class {{className}} {}', { className: 'OrderController' }); // 'class OrderController {}'
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (placeholder, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`the template has ${placeholder}, which has no value`);
    return value;
  });
}

/**
 * The source of a controller of `kind`, rendered from `schematics/controller/<kind>.ts.tpl`.
 *
 * @example
 * renderController('api', controllerNames('Order')); // "import { ApiResource, ... } from 'keel'; ..."
 */
export function renderController(kind: ControllerKind, names: ControllerNames): string {
  const template = readFileSync(path.join(SCHEMATICS, 'controller', `${kind}.ts.tpl`), 'utf8');
  return renderTemplate(template, { ...names });
}

/** A page a generated controller renders: its path under the views directory, and its text. */
export interface GeneratedView {
  /** `order-items/create.html` */
  readonly name: string;
  readonly text: string;
}

// The pages each kind of controller renders: only the resource's create and edit answer HTML.
const VIEWS: Readonly<Record<ControllerKind, readonly string[]>> = {
  resource: ['create.html', 'edit.html'],
  api: [],
  plain: [],
};

/**
 * The templates a controller of `kind` renders, from `schematics/controller/views/`.
 *
 * @example
 * renderViews('resource', controllerNames('OrderItem')); // [{ name: 'order-items/create.html', text: '<!doctype html>...' }, ...]
 */
export function renderViews(kind: ControllerKind, names: ControllerNames): GeneratedView[] {
  const label = names.fileName.replace(/-/g, ' ');
  return VIEWS[kind].map((file) => ({
    name: `${names.path}/${file}`,
    text: renderTemplate(readFileSync(path.join(SCHEMATICS, 'controller', 'views', `${file}.tpl`), 'utf8'), {
      ...names,
      label,
    }),
  }));
}

/** One statement of a migration, with the values of its `$1`-style parameters, if any. */
export interface MigrationStatement {
  readonly sql: string;
  readonly parameters?: readonly unknown[] | undefined;
}

/** What a migration's file holds: its class, and the statements of `up()` and of `down()`, in order. */
export interface MigrationSource {
  readonly className: string;
  readonly up: readonly MigrationStatement[];
  readonly down: readonly MigrationStatement[];
}

// What an empty method says, so that the file reads as a place to write, and type-checks as it is.
const EMPTY_UP = '    // The schema change: await queryRunner.query(`ALTER TABLE "orders" ADD "note" text`);';
const EMPTY_DOWN =
  '    // What undoes up(): await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "note"`);';

/**
 * The source of a migration class, rendered from `schematics/migration/migration.ts.tpl`: each
 * statement becomes an `await queryRunner.query(...)` line, as a template literal.
 *
 * @example
 * renderMigration({ className: 'AddNote1700000000000', up: [{ sql: 'ALTER TABLE "orders" ADD "note" text' }], down: [] });
 */
export function renderMigration(migration: MigrationSource): string {
  const template = readFileSync(path.join(SCHEMATICS, 'migration', 'migration.ts.tpl'), 'utf8');
  const body = (statements: readonly MigrationStatement[], empty: string): string =>
    statements.length === 0 ? empty : statements.map(queryLine).join('\n');
  return renderTemplate(template, {
    className: migration.className,
    up: body(migration.up, EMPTY_UP),
    down: body(migration.down, EMPTY_DOWN),
  });
}

function queryLine({ sql, parameters }: MigrationStatement): string {
  const values = parameters && parameters.length > 0 ? `, ${JSON.stringify(parameters)}` : '';
  return `    await queryRunner.query(${literal(sql)}${values});`;
}

// SQL as a template literal: double quotes stay readable; backslashes, backticks and `${` are escaped.
function literal(sql: string): string {
  return `\`${sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
}

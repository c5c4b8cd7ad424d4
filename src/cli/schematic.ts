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

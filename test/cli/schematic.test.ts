// The renderer is internal to the CLI, so this unit test reaches into src/ directly.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ControllerKind } from '../../src/cli/controller-kinds';
import { controllerNames } from '../../src/cli/naming';
import { renderController, renderTemplate } from '../../src/cli/schematic';

const GOLDEN = path.join(__dirname, 'golden');

describe('renderController', () => {
  test.each<ControllerKind>(['resource', 'api', 'plain'])(
    'renders the %s schematic exactly as its golden file',
    (kind) => {
      const golden = readFileSync(path.join(GOLDEN, `order-item.${kind}.ts.golden`), 'utf8');
      expect(renderController(kind, controllerNames('OrderItem'))).toBe(golden);
    },
  );

  test.each<ControllerKind>(['resource', 'api', 'plain'])(
    'the %s controller imports only from keel',
    (kind) => {
      const source = renderController(kind, controllerNames('Order'));
      expect([...source.matchAll(/from '([^']+)'/g)].map((match) => match[1])).toEqual(['keel']);
    },
  );
});

describe('renderTemplate', () => {
  test('fills every placeholder', () => {
    expect(renderTemplate('{{a}}-{{b}}-{{a}}', { a: '1', b: '2' })).toBe('1-2-1');
  });

  test('throws for a placeholder without a value, never leaving braces behind', () => {
    expect(() => renderTemplate('class {{missing}} {}', {})).toThrow('{{missing}}');
  });
});

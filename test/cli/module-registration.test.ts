// The module edit is internal to the CLI, so this unit test reaches into src/ directly.
import { planRegistration, type Registration } from '../../src/cli/module-registration';

const entry = {
  className: 'OrderController',
  importLine: "import { OrderController } from './http/controllers/order';",
};

function moduleFile(controllers: string, imports = "import { Module } from 'keel';"): string {
  return `${imports}\n\n@Module({\n  ${controllers}\n})\nexport class AppModule {}\n`;
}

function editedText(registration: Registration): string {
  if (registration.kind !== 'edit') throw new Error(`expected an edit, got ${JSON.stringify(registration)}`);
  return registration.text;
}

describe('planRegistration', () => {
  test('adds the class to an empty list and its import after the last import', () => {
    const plan = planRegistration(moduleFile('controllers: [],'), entry);
    expect(editedText(plan)).toBe(
      "import { Module } from 'keel';\n" +
        `${entry.importLine}\n\n@Module({\n  controllers: [OrderController],\n})\nexport class AppModule {}\n`,
    );
    expect(plan).toMatchObject({
      changes: [
        { line: 2, removed: [], added: [entry.importLine] },
        { line: 4, removed: ['  controllers: [],'], added: ['  controllers: [OrderController],'] },
      ],
    });
  });

  test('appends to a one-line list', () => {
    const plan = planRegistration(moduleFile('controllers: [HomeController, UserController],'), entry);
    expect(editedText(plan)).toContain('controllers: [HomeController, UserController, OrderController],');
  });

  test('appends a line to a list of one name a line, keeping its indentation and trailing comma', () => {
    const source = moduleFile('controllers: [\n    HomeController,\n  ],');
    expect(editedText(planRegistration(source, entry))).toContain(
      'controllers: [\n    HomeController,\n    OrderController,\n  ],',
    );
  });

  test('keeps a list without a trailing comma without one', () => {
    const source = moduleFile('controllers: [\n    HomeController\n  ],');
    expect(editedText(planRegistration(source, entry))).toContain(
      'controllers: [\n    HomeController,\n    OrderController\n  ],',
    );
  });

  test('adds the import after a multi-line import', () => {
    const imports = "import 'reflect-metadata';\nimport {\n  Module,\n  Injectable,\n} from 'keel';";
    const text = editedText(planRegistration(moduleFile('controllers: [],', imports), entry));
    expect(text.startsWith(`${imports}\n${entry.importLine}\n`)).toBe(true);
  });

  test('says the class is registered already, changing nothing', () => {
    const source = moduleFile(
      'controllers: [OrderController],',
      `import { Module } from 'keel';\n${entry.importLine}`,
    );
    expect(planRegistration(source, entry)).toEqual({ kind: 'registered' });
  });

  test('edits only the controllers of @Module, not a key of the same name in another object', () => {
    const source = moduleFile(
      'imports: [Router.register({ controllers: [] })],\n  controllers: [],',
      "import { Module } from 'keel';\n\nconst settings = { controllers: [] };",
    );
    expect(editedText(planRegistration(source, entry))).toBe(
      source
        .replace("from 'keel';", `from 'keel';\n${entry.importLine}`)
        .replace('  controllers: [],', '  controllers: [OrderController],'),
    );
  });

  test('a key after a string on the same line, or after a string holding /*, is still edited', () => {
    const source = moduleFile(
      "imports: [Static.forRoot('/public/*')], controllers: [],",
      "import { Module } from 'keel';\nconst banner = '/*';",
    );
    expect(editedText(planRegistration(source, entry))).toContain(
      "imports: [Static.forRoot('/public/*')], controllers: [OrderController],",
    );
  });

  test('adds the import after the last real import, not after one inside a template literal', () => {
    const source = `import { Module } from 'keel';\nconst doc = \`\nimport { A } from './a';\n\`;\n\n@Module({ controllers: [] })\nexport class AppModule {}\n`;
    expect(editedText(planRegistration(source, entry))).toBe(
      source
        .replace("from 'keel';", `from 'keel';\n${entry.importLine}`)
        .replace('controllers: []', 'controllers: [OrderController]'),
    );
  });

  test('keeps CRLF line endings: every line it adds ends as the others do', () => {
    const source = moduleFile('controllers: [\n    HomeController,\n  ],').replace(/\n/g, '\r\n');
    const text = editedText(planRegistration(source, entry));
    expect(text).toBe(
      moduleFile('controllers: [\n    HomeController,\n    OrderController,\n  ],')
        .replace("from 'keel';", `from 'keel';\n${entry.importLine}`)
        .replace(/\n/g, '\r\n'),
    );
  });

  test('edits a file that starts with a byte order mark, and keeps the mark', () => {
    const source = `\uFEFF${moduleFile('controllers: [],')}`;
    const text = editedText(planRegistration(source, entry));
    expect(text).toBe(
      `\uFEFF${moduleFile('controllers: [OrderController],').replace("from 'keel';", `from 'keel';\n${entry.importLine}`)}`,
    );
  });

  test.each([
    ['no controllers list', moduleFile('providers: [],'), 'it has no controllers: [...]'],
    [
      'two controllers lists',
      `${moduleFile('controllers: [],')}\n@Module({ controllers: [] })\nexport class OtherModule {}\n`,
      'it has 2 controllers: keys',
    ],
    ['a comment in the list', moduleFile('controllers: [/* none yet */],'), 'more than plain class names'],
    ['a spread in the list', moduleFile('controllers: [...shared],'), 'more than plain class names'],
    ['a call in the list', moduleFile('controllers: controllers(),'), 'not an array written out in place'],
    ['a commented-out key', moduleFile('// controllers: [],'), 'inside a comment or a string'],
    ['a key in a block comment', moduleFile('/*\n  controllers: [],\n  */'), 'inside a comment or a string'],
    [
      'the class imported already',
      moduleFile('controllers: [],', `import { Module } from 'keel';\n${entry.importLine}`),
      'already mentions OrderController',
    ],
    ['no imports', '@Module({ controllers: [] })\nexport class AppModule {}\n', 'no import lines'],
    [
      'the only key in another object',
      moduleFile('providers: [],', "import { Module } from 'keel';\nconst settings = { controllers: [] };"),
      'outside @Module({...})',
    ],
    [
      'the only key in a template literal',
      moduleFile('providers: [],', "import { Module } from 'keel';\nconst help = `\ncontrollers: [A]\n`;"),
      'inside a comment or a string',
    ],
    [
      'the only key in a module nested inside @Module',
      moduleFile('imports: [Router.register({ controllers: [] })],'),
      'outside @Module({...})',
    ],
  ])('changes nothing where it cannot edit safely: %s', (_case, source, reason) => {
    const plan = planRegistration(source, entry);
    expect(plan).toEqual({ kind: 'manual', reason: expect.stringContaining(reason) });
  });
});

// The module edit is internal to the CLI, so this unit test reaches into src/ directly.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_SITE } from '../../src/cli/migration-file';
import { planRegistration, type Registration } from '../../src/cli/module-registration';
import { renderTemplate } from '../../src/cli/schematic';

const entry = {
  className: 'AddThing1700000000000',
  importLine: "import { AddThing1700000000000 } from './migrations/1700000000000-add-thing';",
};
const IMPORTS = "import { DatabaseModule, Module } from 'keel';\nimport { Env } from './config';\n";

// A root module whose imports hold `database`, the DatabaseModule.forRoot(...) call as written.
function moduleFile(database: string, imports = IMPORTS): string {
  return `${imports}\n@Module({\n  imports: [\n    ${database},\n  ],\n})\nexport class AppModule {}\n`;
}

function registered(database: string): string {
  return moduleFile(database, `${IMPORTS}${entry.importLine}\n`);
}

function plan(source: string): Registration {
  return planRegistration(source, entry, MIGRATIONS_SITE);
}

function editedText(registration: Registration): string {
  if (registration.kind !== 'edit') throw new Error(`expected an edit, got ${JSON.stringify(registration)}`);
  return registration.text;
}

describe('registering a migration in DatabaseModule.forRoot', () => {
  test.each([
    [
      'an options object with migrations',
      "DatabaseModule.forRoot({ type: 'postgres', migrations: [] })",
      "DatabaseModule.forRoot({ type: 'postgres', migrations: [AddThing1700000000000] })",
    ],
    [
      'an options object without migrations, on one line',
      "DatabaseModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL })",
      "DatabaseModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL, migrations: [AddThing1700000000000] })",
    ],
    [
      'an options object without migrations, one property a line, with a trailing comma',
      "DatabaseModule.forRoot({\n      type: 'postgres',\n      entities: [\n        Note,\n      ],\n    })",
      "DatabaseModule.forRoot({\n      type: 'postgres',\n      entities: [\n        Note,\n      ],\n      migrations: [AddThing1700000000000],\n    })",
    ],
    [
      'an options object without migrations, without a trailing comma, the last line ending in a comment',
      "DatabaseModule.forRoot({\n      type: 'postgres',\n      synchronize: false // never in production\n    })",
      "DatabaseModule.forRoot({\n      type: 'postgres',\n      synchronize: false, // never in production\n      migrations: [AddThing1700000000000]\n    })",
    ],
    [
      'an arrow returning the options, with migrations',
      "DatabaseModule.forRoot(() => ({ type: 'postgres', migrations: [CreateNotes1] }))",
      "DatabaseModule.forRoot(() => ({ type: 'postgres', migrations: [CreateNotes1, AddThing1700000000000] }))",
    ],
    [
      'an async arrow returning the options, without migrations',
      "DatabaseModule.forRoot(async () => ({ type: 'postgres' }))",
      "DatabaseModule.forRoot(async () => ({ type: 'postgres', migrations: [AddThing1700000000000] }))",
    ],
    [
      'useFactory, an arrow returning an object, without migrations',
      "DatabaseModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ type: 'postgres', url: env.URL }) })",
      "DatabaseModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ type: 'postgres', url: env.URL, migrations: [AddThing1700000000000] }) })",
    ],
    [
      'useFactory, an arrow with a block that returns an object, with migrations',
      "DatabaseModule.forRoot({\n      inject: [Env],\n      useFactory: (env: Env) => {\n        const url = env.URL;\n        return { type: 'postgres', url, migrations: [] };\n      },\n    })",
      "DatabaseModule.forRoot({\n      inject: [Env],\n      useFactory: (env: Env) => {\n        const url = env.URL;\n        return { type: 'postgres', url, migrations: [AddThing1700000000000] };\n      },\n    })",
    ],
    [
      'useFactory, a method whose return spans lines, without migrations',
      "DatabaseModule.forRoot({\n      inject: [Env],\n      useFactory(env: Env) {\n        return {\n          type: 'postgres',\n          url: env.URL,\n        };\n      },\n    })",
      "DatabaseModule.forRoot({\n      inject: [Env],\n      useFactory(env: Env) {\n        return {\n          type: 'postgres',\n          url: env.URL,\n          migrations: [AddThing1700000000000],\n        };\n      },\n    })",
    ],
    [
      'useFactory, an async function expression, without migrations',
      'DatabaseModule.forRoot({ inject: [Env], useFactory: async function (env: Env) { return { url: env.URL }; } })',
      'DatabaseModule.forRoot({ inject: [Env], useFactory: async function (env: Env) { return { url: env.URL, migrations: [AddThing1700000000000] }; } })',
    ],
  ])('%s', (_form, before, after) => {
    expect(editedText(plan(moduleFile(before)))).toBe(registered(after));
  });

  test('the module `framework new` writes: the migration is added to the object its factory returns', () => {
    const template = path.join(__dirname, '..', '..', 'schematics', 'project', 'src', 'app.module.ts.tpl');
    const source = renderTemplate(readFileSync(template, 'utf8'), {});
    const golden = readFileSync(path.join(__dirname, 'golden', 'app.module.migration.ts.golden'), 'utf8');
    const registration = plan(source);
    expect(editedText(registration)).toBe(golden);
    expect(registration).toMatchObject({
      changes: [
        { line: 5, removed: [], added: [expect.stringContaining('import { AddThing1700000000000 }')] },
        { line: 18, removed: [expect.stringContaining('entities: [], server };')] },
      ],
    });
  });

  test('says a migration listed already is registered, changing nothing', () => {
    const source = registered('DatabaseModule.forRoot(() => ({ migrations: [AddThing1700000000000] }))');
    expect(plan(source)).toEqual({ kind: 'registered' });
  });

  test.each([
    [
      'options from a call',
      'DatabaseModule.forRoot(databaseOptions())',
      'it is given `databaseOptions()`, built elsewhere',
    ],
    ['options from a variable', 'DatabaseModule.forRoot(options)', 'it is given `options`, built elsewhere'],
    [
      'a factory returning a call',
      'DatabaseModule.forRoot(() => databaseOptions())',
      'its factory returns `databaseOptions()`, not an object written out in place',
    ],
    [
      'useFactory defined elsewhere',
      'DatabaseModule.forRoot({ inject: [Env], useFactory: makeOptions })',
      'its useFactory is `makeOptions`, built elsewhere',
    ],
    [
      'useFactory as a shorthand property',
      'DatabaseModule.forRoot({ inject: [Env], useFactory })',
      'its useFactory is a function defined elsewhere',
    ],
    [
      'a factory that returns in two places',
      "DatabaseModule.forRoot(() => {\n      if (process.env.CI) return { type: 'postgres' };\n      return { type: 'postgres', url: '' };\n    })",
      'its factory returns in 2 places',
    ],
    [
      'a factory whose one return is in a branch',
      "DatabaseModule.forRoot(() => {\n      if (ready) { return { type: 'postgres' }; }\n      throw new Error('not ready');\n    })",
      'its factory returns from inside a nested block',
    ],
    [
      'options with a spread',
      "DatabaseModule.forRoot({ ...baseOptions, type: 'postgres' })",
      'its options hold a spread or a quoted or computed key, which may give migrations already',
    ],
    [
      'options with a quoted key',
      "DatabaseModule.forRoot({ 'migrations': [], type: 'postgres' })",
      'its options hold a spread or a quoted or computed key',
    ],
    [
      'a list with a spread',
      'DatabaseModule.forRoot(() => ({ migrations: [...older] }))',
      'its migrations list holds more than plain class names',
    ],
    [
      'a list built elsewhere',
      'DatabaseModule.forRoot(() => ({ migrations: allMigrations }))',
      'its migrations is not an array written out in place',
    ],
    ['no call', 'HealthModule.forRoot()', 'it has no DatabaseModule.forRoot(...)'],
    [
      'a call only in a comment',
      '// DatabaseModule.forRoot({ migrations: [] })\n    HealthModule.forRoot()',
      'it has no DatabaseModule.forRoot(...)',
    ],
    [
      'two calls without migrations',
      "DatabaseModule.forRoot({ type: 'postgres' }),\n    DatabaseModule.forRoot({ type: 'mysql' })",
      'it has 2 calls of DatabaseModule.forRoot(...)',
    ],
    [
      'two calls with migrations',
      'DatabaseModule.forRoot({ migrations: [] }),\n    DatabaseModule.forRoot(() => ({ migrations: [] }))',
      'it has 2 migrations: keys',
    ],
  ])('changes nothing where it cannot edit safely: %s', (_case, database, reason) => {
    expect(plan(moduleFile(database))).toEqual({ kind: 'manual', reason: expect.stringContaining(reason) });
  });
});

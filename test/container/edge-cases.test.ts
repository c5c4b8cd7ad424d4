import { Inject, Injectable, InjectionToken, type ModuleImport, type Token } from 'keel';
import { boot, defineModule } from '../factories/define-module';

@Injectable()
class QueryBuilder {
  // A `then` method makes this class thenable: the container must not mistake it for a promise.
  then(callback: (rows: string) => void): void {
    callback('rows');
  }
}

@Injectable()
class Repository {
  constructor(readonly query: QueryBuilder) {}
}

test('a provider whose instance has a then method is injected as the instance, not awaited', async () => {
  const app = await boot(defineModule('AppModule', { providers: [QueryBuilder, Repository] }));
  expect(app.get(Repository).query).toBeInstanceOf(QueryBuilder);
});

test('a value provider with a then method is injected as the value', async () => {
  const LAZY = new InjectionToken<{ then: () => void }>('LAZY');
  const lazy = { then: () => undefined };
  @Injectable()
  class Consumer {
    constructor(@Inject(LAZY) readonly lazy: unknown) {}
  }
  const app = await boot(
    defineModule('AppModule', { providers: [{ provide: LAZY, useValue: lazy }, Consumer] }),
  );
  expect(app.get(Consumer).lazy).toBe(lazy);
});

test('exports reach an importer through two modules that re-export each other', async () => {
  const QUOTA = new InjectionToken<number>('QUOTA');
  const aImports: ModuleImport[] = [];
  const aExports: (Token | ModuleImport)[] = [];
  const A = defineModule('AModule', { imports: aImports, exports: aExports });
  const B = defineModule('BModule', {
    imports: [A],
    providers: [{ provide: QUOTA, useValue: 5 }],
    exports: [A, QUOTA],
  });
  aImports.push(B);
  aExports.push(B);
  @Injectable()
  class Meter {
    constructor(@Inject(QUOTA) readonly quota: number) {}
  }
  const app = await boot(defineModule('AppModule', { imports: [A], providers: [Meter] }));
  expect(app.get(Meter).quota).toBe(5);
});

test('a decorated class whose parameter types were not emitted fails boot with E_NO_TYPE_METADATA', async () => {
  class Mailer {
    send(): void {}
  }
  // Decorating by call leaves no design:paramtypes, as with a compiler that emits no metadata.
  class Signup {
    constructor(readonly mailer: Mailer) {}
  }
  Injectable()(Signup);
  await expect(boot(defineModule('AppModule', { providers: [Mailer, Signup] }))).rejects.toMatchObject({
    code: 'E_NO_TYPE_METADATA',
    message:
      'E_NO_TYPE_METADATA: cannot create Signup: it is decorated, but no constructor parameter types were emitted for it.\n' +
      'Fix: compile with "emitDecoratorMetadata": true (tsc or swc; tsx and esbuild emit none).',
  });
});

test('a parameter whose type is undefined at run time is named as a likely circular import', async () => {
  class Report {
    constructor(readonly source: unknown) {}
  }
  Injectable()(Report);
  Reflect.defineMetadata('design:paramtypes', [undefined], Report);
  await expect(boot(defineModule('AppModule', { providers: [Report] }))).rejects.toThrow(
    'E_UNTYPED_DEPENDENCY: cannot create Report: constructor parameter #0 has no injectable type ' +
      '(its type is undefined at run time, which usually means a circular import between files).',
  );
});

import { Inject, Injectable, InjectionToken, type ModuleImport, type Token } from 'keel';
import { boot, defineModule } from './define-module';

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

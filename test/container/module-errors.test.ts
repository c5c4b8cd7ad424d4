import type { Class, Provider } from 'keel';
import { boot, defineModule } from '../factories/define-module';
import { Clock } from '../factories/container-fixtures';

describe('module definition errors', () => {
  test('exporting a token the module neither provides nor imports is E_INVALID_EXPORT', async () => {
    const ClockModule = defineModule('ClockModule', { exports: [Clock] });

    await expect(boot(defineModule('AppModule', { imports: [ClockModule] }))).rejects.toMatchObject({
      code: 'E_INVALID_EXPORT',
      message:
        'E_INVALID_EXPORT: module ClockModule exports Clock, which it neither provides nor imports.\n' +
        'Fix: add Clock to the providers of ClockModule, or remove it from its exports.',
    });
  });

  test('a class without @Module() in imports is E_INVALID_MODULE, naming the importer and the index', async () => {
    const ConfigModule = defineModule('ConfigModule');

    await expect(boot(defineModule('AppModule', { imports: [ConfigModule, Clock] }))).rejects.toMatchObject({
      code: 'E_INVALID_MODULE',
      message:
        'E_INVALID_MODULE: module AppModule imports class Clock at index [1], which is not a module.\n' +
        'Fix: import a class decorated with @Module(), or a dynamic module ({ module, providers, exports }); ' +
        'an undefined entry usually means a circular file import.',
    });
  });

  test('an undefined entry in imports is E_INVALID_MODULE', async () => {
    const root = defineModule('AppModule', { imports: [undefined as unknown as Class] });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_INVALID_MODULE',
      message: expect.stringContaining(
        'module AppModule imports undefined at index [0], which is not a module.\n',
      ),
    });
  });

  test('a provider object with none of useClass, useValue, useFactory, useExisting is E_INVALID_PROVIDER', async () => {
    const misspelt = { provide: Clock, useClas: Clock } as unknown as Provider;

    await expect(boot(defineModule('AppModule', { providers: [misspelt] }))).rejects.toMatchObject({
      code: 'E_INVALID_PROVIDER',
      message:
        'E_INVALID_PROVIDER: module AppModule lists a provider keel cannot use: an object with keys [provide, useClas].\n' +
        'Fix: list a class, or an object with "provide" and one of useClass, useValue, useFactory, useExisting.',
    });
  });

  test('a provider object without provide is E_INVALID_PROVIDER', async () => {
    const anonymous = { useValue: 1 } as unknown as Provider;

    await expect(boot(defineModule('AppModule', { providers: [anonymous] }))).rejects.toMatchObject({
      code: 'E_INVALID_PROVIDER',
      message: expect.stringContaining('lists a provider keel cannot use: an object with keys [useValue].\n'),
    });
  });

  test('an undecorated class in controllers is E_NOT_A_CONTROLLER', async () => {
    await expect(boot(defineModule('AppModule', { controllers: [Clock] }))).rejects.toMatchObject({
      code: 'E_NOT_A_CONTROLLER',
      message:
        'E_NOT_A_CONTROLLER: module AppModule lists class Clock as a controller, but it has no @Controller, @Resource or @ApiResource.\n' +
        'Fix: decorate the class, or move it to the providers.',
    });
  });
});

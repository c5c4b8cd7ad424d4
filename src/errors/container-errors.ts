import { describeValue, messageOf, tokenName } from './describe-value';
import { defineErrors } from './error-entry';

const arrow = ' → ';

/**
 * What an unknown dependency's error names: who asked, at which position, for what, and who could have given it.
 *
 * @example
 * throw ContainerErrors.unknownDependency({ dependent: 'OrderService', position: 'constructor parameter #0', token, module: 'OrdersModule', owner: undefined, path: ['OrderService'] });
 */
export interface UnknownDependency {
  readonly dependent: string;
  readonly position: string;
  readonly token: unknown;
  readonly module: string;
  readonly owner: { name: string; exports: boolean } | undefined;
  readonly path: readonly string[];
}

/**
 * The errors of the dependency-injection container and the module graph: one entry per code, so each message is written once.
 *
 * @example
 * ContainerErrors.unknownDependency.code; // 'E_UNKNOWN_DEPENDENCY'
 */
export const ContainerErrors = defineErrors({
  unknownDependency: {
    code: 'E_UNKNOWN_DEPENDENCY',
    message: (p: UnknownDependency) => {
      const name = tokenName(p.token);
      const owner = p.owner?.name;
      const fix = !owner
        ? `add ${name} to the providers of ${p.module}, or import a module that exports it.`
        : p.owner?.exports
          ? `${name} is exported by ${owner}: import ${owner} into ${p.module}.`
          : `${name} is provided by ${owner} but not exported from it: add it to the exports of ${owner} and import ${owner} into ${p.module}.`;
      return (
        `cannot create ${p.dependent}: ${p.position} asks for ${name}, which module ${p.module} cannot see.\n` +
        `Fix: ${fix}\nResolution path: ${p.path.join(arrow)}`
      );
    },
  },

  untypedDependency: {
    code: 'E_UNTYPED_DEPENDENCY',
    message: (dependent: string, index: number, isUndefined: boolean) => {
      const reason = isUndefined
        ? 'its type is undefined at run time, which usually means a circular import between files'
        : 'an interface, a union, a primitive, or a type-only import leaves none at run time';
      return (
        `cannot create ${dependent}: constructor parameter #${index} has no injectable type (${reason}).\n` +
        `Fix: decorate the parameter with @Inject(token), or give it a class type.`
      );
    },
  },

  notInjectable: {
    code: 'E_NOT_INJECTABLE',
    message: (dependent: string) =>
      `cannot create ${dependent}: its constructor takes parameters but keel has no record of their types.\n` +
      `Fix: decorate ${dependent} with @Injectable() (or @Controller/@Resource), and compile with emitDecoratorMetadata.`,
  },

  noTypeMetadata: {
    code: 'E_NO_TYPE_METADATA',
    message: (dependent: string) =>
      `cannot create ${dependent}: it is decorated, but no constructor parameter types were emitted for it.\n` +
      `Fix: compile with "emitDecoratorMetadata": true (tsc or swc; tsx and esbuild emit none).`,
  },

  dependencyCycle: {
    code: 'E_DEPENDENCY_CYCLE',
    message: (path: readonly string[]) =>
      `dependency cycle: ${path.join(arrow)}.\n` +
      `Fix: break the cycle, for example by moving what ${path[0]} and ${path[1]} share into a third provider that both inject.`,
  },

  providerFailed: {
    code: 'E_PROVIDER_FAILED',
    message: (provider: string, module: string, cause: unknown) =>
      `creating ${provider} in module ${module} threw.\nReason: ${messageOf(cause)}`,
    extras: (_provider: string, _module: string, cause: unknown) => ({ cause }),
  },

  unknownToken: {
    code: 'E_UNKNOWN_TOKEN',
    message: (token: unknown) =>
      `no provider for ${tokenName(token)} in any module of the application.\n` +
      `Fix: add it to the providers of a module that the root module imports.`,
  },

  unknownOverride: {
    code: 'E_UNKNOWN_OVERRIDE',
    message: (token: unknown) => {
      const name = tokenName(token);
      return (
        `overrideProvider(${name}): no module of the application provides ${name}, so the override would replace nothing.\n` +
        `Fix: override a token a module lists in its providers (or a middleware, guard, interceptor, filter or pipe class), ` +
        `or add ${name} to the providers of the module that uses it.`
      );
    },
  },

  invalidProvider: {
    code: 'E_INVALID_PROVIDER',
    message: (module: string, provider: unknown) =>
      `module ${module} lists a provider keel cannot use: ${describeValue(provider)}.\n` +
      `Fix: list a class, or an object with "provide" and one of useClass, useValue, useFactory, useExisting.`,
  },

  invalidModule: {
    code: 'E_INVALID_MODULE',
    message: (importer: string | undefined, position: number, value: unknown) => {
      const where = importer
        ? `module ${importer} imports ${describeValue(value)} at index [${position}]`
        : `createApplication was given ${describeValue(value)} as the root module`;
      return (
        `${where}, which is not a module.\n` +
        `Fix: import a class decorated with @Module(), or a dynamic module ({ module, providers, exports }); ` +
        `an undefined entry usually means a circular file import.`
      );
    },
  },

  invalidExport: {
    code: 'E_INVALID_EXPORT',
    message: (module: string, token: unknown) =>
      `module ${module} exports ${tokenName(token)}, which it neither provides nor imports.\n` +
      `Fix: add ${tokenName(token)} to the providers of ${module}, or remove it from its exports.`,
  },

  notAController: {
    code: 'E_NOT_A_CONTROLLER',
    message: (module: string, value: unknown) =>
      `module ${module} lists ${describeValue(value)} as a controller, but it has no @Controller, @Resource or @ApiResource.\n` +
      `Fix: decorate the class, or move it to the providers.`,
  },
});

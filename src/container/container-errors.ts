import { FrameworkError, describeValue, messageOf } from '../framework-error';
import { tokenName } from './token';

const arrow = ' → ';

/** The errors of the dependency-injection container and the module graph: one builder per code, so each message is written once. */
export const ContainerErrors = {
  unknownDependency(p: {
    dependent: string;
    position: string;
    token: unknown;
    module: string;
    owner: { name: string; exports: boolean } | undefined;
    path: readonly string[];
  }) {
    const name = tokenName(p.token);
    const owner = p.owner?.name;
    const fix = !owner
      ? `add ${name} to the providers of ${p.module}, or import a module that exports it.`
      : p.owner?.exports
        ? `${name} is exported by ${owner}: import ${owner} into ${p.module}.`
        : `${name} is provided by ${owner} but not exported from it: add it to the exports of ${owner} and import ${owner} into ${p.module}.`;
    return new FrameworkError(
      'E_UNKNOWN_DEPENDENCY',
      `cannot create ${p.dependent}: ${p.position} asks for ${name}, which module ${p.module} cannot see.\n` +
        `Fix: ${fix}\nResolution path: ${p.path.join(arrow)}`,
    );
  },

  untypedDependency(dependent: string, index: number, isUndefined: boolean) {
    const reason = isUndefined
      ? 'its type is undefined at run time, which usually means a circular import between files'
      : 'an interface, a union, a primitive, or a type-only import leaves none at run time';
    return new FrameworkError(
      'E_UNTYPED_DEPENDENCY',
      `cannot create ${dependent}: constructor parameter #${index} has no injectable type (${reason}).\n` +
        `Fix: decorate the parameter with @Inject(token), or give it a class type.`,
    );
  },

  notInjectable(dependent: string) {
    return new FrameworkError(
      'E_NOT_INJECTABLE',
      `cannot create ${dependent}: its constructor takes parameters but keel has no record of their types.\n` +
        `Fix: decorate ${dependent} with @Injectable() (or @Controller/@Resource), and compile with emitDecoratorMetadata.`,
    );
  },

  noTypeMetadata(dependent: string) {
    return new FrameworkError(
      'E_NO_TYPE_METADATA',
      `cannot create ${dependent}: it is decorated, but no constructor parameter types were emitted for it.\n` +
        `Fix: compile with "emitDecoratorMetadata": true (tsc or swc; tsx and esbuild emit none).`,
    );
  },

  dependencyCycle(path: readonly string[]) {
    const [first, second] = path;
    return new FrameworkError(
      'E_DEPENDENCY_CYCLE',
      `dependency cycle: ${path.join(arrow)}.\n` +
        `Fix: break the cycle, for example by moving what ${first} and ${second} share into a third provider that both inject.`,
    );
  },

  providerFailed(provider: string, module: string, cause: unknown) {
    return new FrameworkError(
      'E_PROVIDER_FAILED',
      `creating ${provider} in module ${module} threw.\nReason: ${messageOf(cause)}`,
      { cause },
    );
  },

  unknownToken(token: unknown) {
    return new FrameworkError(
      'E_UNKNOWN_TOKEN',
      `no provider for ${tokenName(token)} in any module of the application.\n` +
        `Fix: add it to the providers of a module that the root module imports.`,
    );
  },

  unknownOverride(token: unknown) {
    const name = tokenName(token);
    return new FrameworkError(
      'E_UNKNOWN_OVERRIDE',
      `overrideProvider(${name}): no module of the application provides ${name}, so the override would replace nothing.\n` +
        `Fix: override a token a module lists in its providers (or a middleware, guard, interceptor, filter or pipe class), ` +
        `or add ${name} to the providers of the module that uses it.`,
    );
  },

  invalidProvider(module: string, provider: unknown) {
    return new FrameworkError(
      'E_INVALID_PROVIDER',
      `module ${module} lists a provider keel cannot use: ${describeValue(provider)}.\n` +
        `Fix: list a class, or an object with "provide" and one of useClass, useValue, useFactory, useExisting.`,
    );
  },

  invalidModule(importer: string | undefined, position: number, value: unknown) {
    const where = importer
      ? `module ${importer} imports ${describeValue(value)} at index [${position}]`
      : `createApplication was given ${describeValue(value)} as the root module`;
    return new FrameworkError(
      'E_INVALID_MODULE',
      `${where}, which is not a module.\n` +
        `Fix: import a class decorated with @Module(), or a dynamic module ({ module, providers, exports }); ` +
        `an undefined entry usually means a circular file import.`,
    );
  },

  invalidExport(module: string, token: unknown) {
    return new FrameworkError(
      'E_INVALID_EXPORT',
      `module ${module} exports ${tokenName(token)}, which it neither provides nor imports.\n` +
        `Fix: add ${tokenName(token)} to the providers of ${module}, or remove it from its exports.`,
    );
  },

  notAController(module: string, value: unknown) {
    return new FrameworkError(
      'E_NOT_A_CONTROLLER',
      `module ${module} lists ${describeValue(value)} as a controller, but it has no @Controller, @Resource or @ApiResource.\n` +
        `Fix: decorate the class, or move it to the providers.`,
    );
  },
};

import { types } from 'node:util';
import type { HookFailure } from './container/lifecycle';
import { tokenName } from './container/token';

/** Field name → the validation messages for it, as sent in a 422 body. */
export type FieldErrors = Record<string, string[]>;

/** Options of an {@link HttpError}. */
export interface HttpErrorOptions {
  /** Send `message` to the client. Defaults to true for 4xx and false for 5xx. */
  expose?: boolean;
  /** Per-field validation messages, sent as `fields`. */
  fields?: FieldErrors;
  cause?: unknown;
}

/**
 * The one error type handlers throw to answer with a status: the responder sends
 * `{"error": message}` for 4xx, and hides the message of a 5xx unless `expose` is set.
 *
 * @example
 * if (!order) throw new HttpError(404, 'order not found');
 */
export class HttpError extends Error {
  readonly status: number;
  readonly expose: boolean;
  readonly fields: FieldErrors | undefined;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, { cause: options.cause });
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${status}`);
    }
    this.name = 'HttpError';
    this.status = status;
    this.expose = options.expose ?? status < 500;
    this.fields = options.fields;
  }
}

/** The codes of errors keel raises itself, at boot or while serving. */
export type FrameworkErrorCode =
  | 'E_UNKNOWN_DEPENDENCY'
  | 'E_UNTYPED_DEPENDENCY'
  | 'E_NOT_INJECTABLE'
  | 'E_NO_TYPE_METADATA'
  | 'E_DEPENDENCY_CYCLE'
  | 'E_PROVIDER_FAILED'
  | 'E_UNKNOWN_TOKEN'
  | 'E_INVALID_PROVIDER'
  | 'E_INVALID_MODULE'
  | 'E_INVALID_EXPORT'
  | 'E_NOT_A_CONTROLLER'
  | 'E_ROUTE_CONFLICT'
  | 'E_MISSING_ACTION'
  | 'E_UNKNOWN_ACTION'
  | 'E_INVALID_ROUTE'
  | 'E_NO_RESPONSE'
  | 'E_ALREADY_RESPONDED'
  | 'E_UNKNOWN_PARAM'
  | 'E_INVALID_OPTION'
  | 'E_ALREADY_LISTENING'
  | 'E_APPLICATION_CLOSED'
  | 'E_SHUTDOWN_FAILED'
  | 'E_TEMPLATE_OUTSIDE_VIEWS'
  | 'E_INVALID_NAME'
  | 'E_NAME_REQUIRED'
  | 'E_FILE_EXISTS'
  | 'E_MODULE_NOT_FOUND'
  | 'E_ROOT_NOT_FOUND'
  | 'E_MODULE_NOT_EDITED'
  | 'E_NEEDS_APPLICATION';

/**
 * An error in how the application is put together (or, for the `E_NO_RESPONSE` family, in a
 * handler): its message names the culprit and the fix, and `code` says which it is.
 *
 * @example
 * await expect(createApplication(AppModule)).rejects.toMatchObject({ code: 'E_UNKNOWN_DEPENDENCY' });
 */
export class FrameworkError extends Error {
  constructor(
    readonly code: FrameworkErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
    this.name = 'FrameworkError';
  }
}

const arrow = ' → ';

/** The catalogue: one builder per framework error, so each message is written once. */
export const Errors = {
  unknownDependency(p: {
    dependent: string;
    position: string;
    token: unknown;
    module: string;
    owner: { name: string; exports: boolean } | undefined;
    path: readonly string[];
  }): FrameworkError {
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

  untypedDependency(dependent: string, index: number, isUndefined: boolean): FrameworkError {
    const reason = isUndefined
      ? 'its type is undefined at run time, which usually means a circular import between files'
      : 'an interface, a union, a primitive, or a type-only import leaves none at run time';
    return new FrameworkError(
      'E_UNTYPED_DEPENDENCY',
      `cannot create ${dependent}: constructor parameter #${index} has no injectable type (${reason}).\n` +
        `Fix: decorate the parameter with @Inject(token), or give it a class type.`,
    );
  },

  notInjectable(dependent: string): FrameworkError {
    return new FrameworkError(
      'E_NOT_INJECTABLE',
      `cannot create ${dependent}: its constructor takes parameters but keel has no record of their types.\n` +
        `Fix: decorate ${dependent} with @Injectable() (or @Controller/@Resource), and compile with emitDecoratorMetadata.`,
    );
  },

  noTypeMetadata(dependent: string): FrameworkError {
    return new FrameworkError(
      'E_NO_TYPE_METADATA',
      `cannot create ${dependent}: it is decorated, but no constructor parameter types were emitted for it.\n` +
        `Fix: compile with "emitDecoratorMetadata": true (tsc or swc; tsx and esbuild emit none).`,
    );
  },

  dependencyCycle(path: readonly string[]): FrameworkError {
    const [first, second] = path;
    return new FrameworkError(
      'E_DEPENDENCY_CYCLE',
      `dependency cycle: ${path.join(arrow)}.\n` +
        `Fix: break the cycle, for example by moving what ${first} and ${second} share into a third provider that both inject.`,
    );
  },

  providerFailed(provider: string, module: string, cause: unknown): FrameworkError {
    return new FrameworkError(
      'E_PROVIDER_FAILED',
      `creating ${provider} in module ${module} threw.\nReason: ${messageOf(cause)}`,
      { cause },
    );
  },

  unknownToken(token: unknown): FrameworkError {
    return new FrameworkError(
      'E_UNKNOWN_TOKEN',
      `no provider for ${tokenName(token)} in any module of the application.\n` +
        `Fix: add it to the providers of a module that the root module imports.`,
    );
  },

  invalidProvider(module: string, provider: unknown): FrameworkError {
    return new FrameworkError(
      'E_INVALID_PROVIDER',
      `module ${module} lists a provider keel cannot use: ${describe(provider)}.\n` +
        `Fix: list a class, or an object with "provide" and one of useClass, useValue, useFactory, useExisting.`,
    );
  },

  invalidModule(importer: string | undefined, position: number, value: unknown): FrameworkError {
    const where = importer
      ? `module ${importer} imports ${describe(value)} at index [${position}]`
      : `createApplication was given ${describe(value)} as the root module`;
    return new FrameworkError(
      'E_INVALID_MODULE',
      `${where}, which is not a module.\n` +
        `Fix: import a class decorated with @Module(), or a dynamic module ({ module, providers, exports }); ` +
        `an undefined entry usually means a circular file import.`,
    );
  },

  invalidExport(module: string, token: unknown): FrameworkError {
    return new FrameworkError(
      'E_INVALID_EXPORT',
      `module ${module} exports ${tokenName(token)}, which it neither provides nor imports.\n` +
        `Fix: add ${tokenName(token)} to the providers of ${module}, or remove it from its exports.`,
    );
  },

  notAController(module: string, value: unknown): FrameworkError {
    return new FrameworkError(
      'E_NOT_A_CONTROLLER',
      `module ${module} lists ${describe(value)} as a controller, but it has no @Controller, @Resource or @ApiResource.\n` +
        `Fix: decorate the class, or move it to the providers.`,
    );
  },

  routeConflict(method: string, path: string, first: string, second: string): FrameworkError {
    return new FrameworkError(
      'E_ROUTE_CONFLICT',
      `${method} ${path} is declared twice: by ${first} and by ${second}.\n` +
        `Fix: change the path or the method of one of them.`,
    );
  },

  missingAction(
    controller: string,
    kind: string,
    path: string,
    action: string,
    route: string,
  ): FrameworkError {
    return new FrameworkError(
      'E_MISSING_ACTION',
      `${controller} is registered as ${kind} at ${path} but has no method "${action}" (${route}).\n` +
        `Fix: add the method ${action}(ctx) to ${controller}, or leave the action out with { except: ['${action}'] }.`,
    );
  },

  unknownAction(controller: string, action: string, known: readonly string[]): FrameworkError {
    return new FrameworkError(
      'E_UNKNOWN_ACTION',
      `${controller} names the action "${action}" in only/except, which is not a resource action.\n` +
        `Fix: use one of ${known.join(', ')}.`,
    );
  },

  invalidRoute(source: string, reason: string): FrameworkError {
    return new FrameworkError('E_INVALID_ROUTE', `${source}: ${reason}`);
  },

  noResponse(route: string): FrameworkError {
    return new FrameworkError(
      'E_NO_RESPONSE',
      `${route} finished without sending a response or returning a value.\n` +
        `Fix: call ctx.json/html/redirect/error, return a value, or take over ctx.res.`,
    );
  },

  alreadyResponded(route: string): FrameworkError {
    return new FrameworkError(
      'E_ALREADY_RESPONDED',
      `${route} tried to answer a request that was already answered; the second answer was dropped.\n` +
        `Fix: answer once, and await (or return) any promise that answers.`,
    );
  },

  unknownParam(route: string, name: string): FrameworkError {
    return new FrameworkError(
      'E_UNKNOWN_PARAM',
      `${route} reads the path parameter "${name}", which its path does not declare.\n` +
        `Fix: read one of the path's :parameters, or add :${name} to the path.`,
    );
  },

  invalidOption(option: string, value: unknown, expected: string): FrameworkError {
    // JSON.stringify would print NaN and Infinity as null.
    const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
    return new FrameworkError('E_INVALID_OPTION', `the option ${option} is ${shown}: expected ${expected}.`);
  },

  alreadyListening(url: string | undefined): FrameworkError {
    const where = url ? `it already serves ${url}` : 'it is already starting to listen';
    return new FrameworkError(
      'E_ALREADY_LISTENING',
      `listen() was called a second time, but ${where}.\n` +
        `Fix: call listen() once per application; to serve a second port, mount app.express on another server.`,
    );
  },

  applicationClosed(): FrameworkError {
    return new FrameworkError(
      'E_APPLICATION_CLOSED',
      `listen() was called after close(): the application's shutdown hooks have run.\n` +
        `Fix: create a new application with createApplication() to serve again.`,
    );
  },

  shutdownFailed(p: {
    failures: readonly HookFailure[];
    timedOutAfterMs: number | undefined;
  }): FrameworkError {
    const reasons = p.failures.map(
      ({ instance, hook, error }) => `${instance}.${hook} threw: ${messageOf(error)}`,
    );
    if (p.timedOutAfterMs !== undefined) {
      reasons.push(
        `requests were still in flight after shutdownTimeoutMs (${p.timedOutAfterMs} ms); their connections were closed`,
      );
    }
    const errors = p.failures.map((failure) => failure.error);
    return new FrameworkError(
      'E_SHUTDOWN_FAILED',
      `the shutdown finished, but not cleanly:\n- ${reasons.join('\n- ')}`,
      errors.length > 0 ? { cause: new AggregateError(errors, 'shutdown hook failures') } : undefined,
    );
  },

  templateOutsideViews(name: string, views: string): FrameworkError {
    return new FrameworkError(
      'E_TEMPLATE_OUTSIDE_VIEWS',
      `template "${name}" resolves outside the views directory ${views}; it was not read.`,
    );
  },

  invalidName(name: string, problem: string, hint: string): FrameworkError {
    return new FrameworkError(
      'E_INVALID_NAME',
      `${JSON.stringify(name)} cannot name a controller: ${problem}.\nFix: ${hint}.`,
    );
  },

  nameRequired(usage: string): FrameworkError {
    return new FrameworkError(
      'E_NAME_REQUIRED',
      `make:controller needs a name, and there is no terminal to ask for one on.\nUsage: ${usage}`,
    );
  },

  fileExists(file: string): FrameworkError {
    return new FrameworkError(
      'E_FILE_EXISTS',
      `${file} already exists; it was left as it is.\nFix: choose another name, or pass --force to overwrite it.`,
    );
  },

  moduleNotFound(file: string): FrameworkError {
    return new FrameworkError(
      'E_MODULE_NOT_FOUND',
      `the module file ${file} given with --module is not a file; nothing was written.\n` +
        `Fix: pass the file that declares the module given to createApplication, relative to --root.`,
    );
  },

  moduleNotEdited(failure: {
    written: string;
    module: string;
    reason: string;
    lines: readonly string[];
  }): FrameworkError {
    return new FrameworkError(
      'E_MODULE_NOT_EDITED',
      `wrote ${failure.written}, but could not edit ${failure.module} (${failure.reason}); it was left as it was.\n` +
        `Fix: add these lines to the module you pass to createApplication:\n${failure.lines.join('\n')}`,
    );
  },

  rootNotFound(root: string): FrameworkError {
    return new FrameworkError(
      'E_ROOT_NOT_FOUND',
      `--root ${root} is not a directory; nothing was written.\n` +
        'Fix: pass the directory of the project, the one that holds its src/ (or leave --root out inside it).',
    );
  },

  needsApplication(command: string): FrameworkError {
    return new FrameworkError(
      'E_NEEDS_APPLICATION',
      `${command} needs the booted application, which the framework program alone does not have.\n` +
        `Fix: run it through the application's entry point, which hands process.argv to app.run(): node dist/main.js ${command}`,
    );
  },
};

/**
 * The message of anything thrown, Error or not. Errors are recognised by their shape, not
 * `instanceof`: a driver's error may come from another realm (a VM context, a test sandbox). Node
 * reports a refused connection to a name with several addresses as an AggregateError with an empty
 * message; its first error says what happened.
 * @example messageOf(new Error('boom')) // 'boom'
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error || types.isNativeError(error))) return String(error);
  const { errors } = error as { errors?: unknown };
  if (!error.message && Array.isArray(errors) && errors.length > 0) return messageOf(errors[0]);
  return error.message || (error as NodeJS.ErrnoException).code || error.name;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return `class ${value.name || '<anonymous>'}`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object with keys [${Object.keys(value).join(', ')}]`;
  return JSON.stringify(value);
}

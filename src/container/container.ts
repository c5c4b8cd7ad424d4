import { ContainerErrors } from '../errors/container-errors';
import { FrameworkError } from '../errors/framework-error';
import { classDependencies, type Dependency } from './dependencies';
import type { ModuleImport } from './module-definition';
import { ModuleGraph, type ProviderOverrides } from './module-graph';
import { isBuiltOnDemand } from './on-demand';
import { createRecord, ProviderRecord, type RecordScope } from './provider-record';
import { tokenName, type Class, type Token } from './token';

/** A controller instance with the class it was made from. */
export interface ControllerInstance {
  readonly type: Class;
  readonly instance: object;
  /** Builds a class through DI in the controller's module: its guards, interceptors, filters, pipes. */
  readonly resolve: <T>(type: Class<T>) => T;
}

/**
 * The dependency-injection container: it scans the module graph and creates every provider and
 * controller once, at boot (eagerly, so that a missing dependency fails boot rather than a request).
 *
 * @example
 * const container = await Container.create(AppModule);
 * container.get(OrderService);
 */
export class Container {
  readonly #graph: ModuleGraph;
  // One instance per class and module, for classes built on demand in a module's scope.
  readonly #constructed = new Map<RecordScope, Map<Class, unknown>>();
  /** Overrides of classes no module provides, which keel builds on demand (middleware, guards). */
  readonly #onDemand = new Map<Token, ProviderRecord>();

  private constructor(graph: ModuleGraph) {
    this.#graph = graph;
  }

  /**
   * Scans `root` and creates all its providers and controllers; rejects with a boot error.
   * `builtIns` (and the container itself) can be injected in every module that does not provide
   * the same token itself; `overrides` replace the providers of their tokens wherever they are
   * provided. @example await Container.create(AppModule)
   */
  static async create(
    root: ModuleImport,
    builtIns: ReadonlyMap<Token, unknown> = new Map(),
    overrides: ProviderOverrides = new Map(),
  ): Promise<Container> {
    const graph = new ModuleGraph(root, overrides);
    const container = new Container(graph);
    for (const [token, override] of overrides) {
      if (graph.overridden.has(token)) continue;
      if (!isBuiltOnDemand(token)) throw ContainerErrors.unknownOverride(token);
      container.#onDemand.set(token, createRecord(override, graph.root));
    }
    // Cast: the private constructor makes the class no `Class`, yet it is the token users inject.
    container.#provideEverywhere(
      new Map<Token, unknown>([[Container as unknown as Class, container], ...builtIns]),
    );
    for (const record of container.#records()) await container.#resolve(record, []);
    return container;
  }

  /**
   * The instance for `token`: a provider seen from the root module first, then a provider or a
   * controller of any module. @example container.get(OrderService)
   */
  get<T>(token: Token<T>): T {
    const record = this.#graph.root.visible.get(token) ?? this.#graph.findRecord(token);
    if (!record) throw ContainerErrors.unknownToken(token);
    return record.instance as T;
  }

  /** Whether some module provides `token`. @example container.has(OPENAPI_DOCUMENT) */
  has(token: Token): boolean {
    return (this.#graph.root.visible.get(token) ?? this.#graph.findRecord(token)) !== undefined;
  }

  /**
   * An instance of `type` with its dependencies taken from the root module's scope: the provider's
   * instance when `type` is one, otherwise a new one, made once (no lifecycle hooks run on it).
   * @example container.construct(PhotoController)
   */
  construct<T>(type: Class<T>): T {
    return this.#constructIn(this.#graph.root, type);
  }

  /**
   * Every instance provided under a multi token (`APP_GUARD`), module by module (imports first),
   * in declaration order. @example container.getAll(APP_GUARD)
   */
  getAll<T>(token: Token<T>): T[] {
    return [...this.#records()]
      .filter((record) => record.token === token)
      .map((record) => record.instance as T);
  }

  /** Every controller, module by module (imports first), in declaration order. @example container.controllers().length */
  controllers(): ControllerInstance[] {
    return this.#graph.modules.flatMap((node) =>
      node.controllers.map((record) => ({
        type: record.token as Class,
        instance: record.instance as object,
        resolve: <T>(type: Class<T>): T => this.#constructIn(node, type),
      })),
    );
  }

  /** Every distinct instance, module by module (imports first): the order of init hooks. @example container.instances() */
  instances(): unknown[] {
    return [...new Set([...this.#records()].map((record) => record.instance))];
  }

  #constructIn<T>(scope: RecordScope, type: Class<T>): T {
    const provided = scope.visible.get(type) ?? this.#onDemand.get(type);
    if (provided) return provided.instance as T;
    const built = this.#constructed.get(scope) ?? new Map<Class, unknown>();
    this.#constructed.set(scope, built);
    if (!built.has(type)) {
      const args = classDependencies(type).map((dependency) => {
        const record = this.#lookup(scope, dependency, type.name, [scope.name, type.name]);
        return record?.instance;
      });
      built.set(type, new (type as unknown as new (...a: unknown[]) => T)(...args));
    }
    return built.get(type) as T;
  }

  #provideEverywhere(values: ReadonlyMap<Token, unknown>): void {
    const scope: RecordScope = { name: 'keel', visible: new Map() };
    for (const [token, value] of values) {
      const record = new ProviderRecord(token, tokenName(token), scope, [], () => value);
      record.instance = value;
      record.isResolved = true;
      for (const node of this.#graph.modules) if (!node.visible.has(token)) node.visible.set(token, record);
    }
  }

  *#records(): Generator<ProviderRecord> {
    for (const node of this.#graph.modules) {
      yield* node.providers.values();
      yield* node.controllers;
    }
    yield* this.#onDemand.values();
  }

  // Resolution is sequential (one await at a time), so `path` is the only chain in progress and
  // finding a record on it is exactly a cycle.
  // Resolves to nothing and callers read `record.instance`: an async function returning a thenable
  // instance would unwrap it.
  async #resolve(record: ProviderRecord, path: readonly ProviderRecord[]): Promise<void> {
    if (record.isResolved) return;
    const chain = [...path, record];
    const start = path.indexOf(record);
    if (start >= 0) throw ContainerErrors.dependencyCycle(chain.slice(start).map((entry) => entry.label));

    const args: unknown[] = [];
    for (const dependency of record.dependencies) {
      const names = [(path[0] ?? record).scope.name, ...chain.map((entry) => entry.label)];
      const target = this.#lookup(record.scope, dependency, record.label, names);
      if (target) await this.#resolve(target, chain);
      args.push(target?.instance);
    }
    try {
      const created = record.create(args);
      record.instance = record.awaitsResult ? await created : created;
    } catch (error) {
      // keel's own errors (invalid configuration, options) already name the culprit and the fix.
      if (error instanceof FrameworkError) throw error;
      throw ContainerErrors.providerFailed(record.label, record.scope.name, error);
    }
    record.isResolved = true;
  }

  #lookup(scope: RecordScope, dependency: Dependency, dependent: string, path: readonly string[]) {
    const record = scope.visible.get(dependency.token);
    if (record || dependency.optional) return record;
    const owner = this.#graph.findProvider(dependency.token);
    throw ContainerErrors.unknownDependency({
      dependent,
      position: dependency.position,
      token: dependency.token,
      module: scope.name,
      owner:
        owner && owner !== scope
          ? { name: owner.name, exports: owner.exported.has(dependency.token) }
          : undefined,
      path,
    });
  }
}

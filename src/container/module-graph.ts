import { ContainerErrors } from '../errors/container-errors';
import { MetadataKey } from '../metadata/keys';
import { getOwnMetadata } from '../metadata/reflection';
import { isDynamicModule, type ModuleImport, type ModuleMetadata } from './module-definition';
import { ModuleNode } from './module-node';
import type { ClassProvider, FactoryProvider, Provider, ValueProvider } from './provider';
import { createRecord, type ProviderRecord } from './provider-record';
import { InjectionToken, type Class, type Token } from './token';

/**
 * Replacements by token, wherever the token is provided; a class's replacement also stands in for
 * it where a provider names it as `useClass` (`{ provide: APP_GUARD, useClass: AuthGuard }`).
 */
export type ProviderOverrides = ReadonlyMap<Token, ClassProvider | ValueProvider | FactoryProvider>;

/**
 * The application's modules, scanned once from the root: each module's records, what it exports,
 * and what each module can see (its own providers, its imports' exports, global modules' exports).
 */
export class ModuleGraph {
  /** Every module, imports before their importers: the order of instantiation and of init hooks. */
  readonly modules: ModuleNode[] = [];
  readonly root: ModuleNode;
  /** The overridden tokens some module provides (or declares as a controller). */
  readonly overridden = new Set<Token>();
  readonly #nodes = new Map<ModuleImport, ModuleNode>();
  readonly #overrides: ProviderOverrides;

  constructor(root: ModuleImport, overrides: ProviderOverrides = new Map()) {
    this.#overrides = overrides;
    this.root = this.#scan(root, undefined, 0);
    this.#collectExports();
    const globals = this.modules.filter((node) => node.isGlobal);
    for (const node of this.modules) {
      for (const source of [...globals, ...node.imports]) {
        for (const [token, record] of source.exported) node.visible.set(token, record);
      }
      for (const [token, record] of node.providers) node.visible.set(token, record);
    }
  }

  /** The record of `token` in any module, a provider or a controller. */
  findRecord(token: Token): ProviderRecord | undefined {
    for (const node of this.modules) {
      const record =
        node.providers.get(token) ?? node.controllers.find((controller) => controller.token === token);
      if (record) return record;
    }
    return undefined;
  }

  /** The module that provides `token` itself, if any, to suggest an export in error messages. */
  findProvider(token: Token): ModuleNode | undefined {
    return this.modules.find((node) => node.providers.has(token));
  }

  #scan(entry: ModuleImport, importer: string | undefined, position: number): ModuleNode {
    const known = this.#nodes.get(entry);
    if (known) return known;
    const type = isDynamicModule(entry) ? entry.module : entry;
    const staticMetadata =
      typeof type === 'function' ? getOwnMetadata<ModuleMetadata>(MetadataKey.module, type) : undefined;
    if (typeof type !== 'function' || (!staticMetadata && !isDynamicModule(entry))) {
      throw ContainerErrors.invalidModule(importer, position, entry);
    }
    const metadata = isDynamicModule(entry)
      ? mergeMetadata(staticMetadata ?? {}, entry)
      : (staticMetadata ?? {});
    const isGlobal =
      (isDynamicModule(entry) && entry.global) || getOwnMetadata<boolean>(MetadataKey.global, type) === true;
    const node = new ModuleNode(type, metadata, isGlobal);
    this.#nodes.set(entry, node);

    (metadata.imports ?? []).forEach((child, index) =>
      node.imports.push(this.#scan(child, node.name, index)),
    );
    for (const provider of metadata.providers ?? []) {
      const record = this.#overridden(createRecord(provider, node), node, provider);
      // Each provider of a multi token is one more instance: kept under a key of its own.
      const key = isMultiToken(record.token) ? Symbol(record.label) : record.token;
      node.providers.set(key, record);
    }
    for (const controller of metadata.controllers ?? [])
      node.controllers.push(this.#overridden(controllerRecord(controller, node), node));
    this.modules.push(node);
    return node;
  }

  // Replaced before exports and visibility are computed, so every consumer, in any module, sees
  // the override and nothing can reach the original.
  #overridden(record: ProviderRecord, node: ModuleNode, provider?: Provider): ProviderRecord {
    const replaced = this.#overrides.has(record.token) ? record.token : classNamedBy(provider);
    const override = replaced === undefined ? undefined : this.#overrides.get(replaced);
    if (!override || replaced === undefined) return record;
    this.overridden.add(replaced);
    return createRecord({ ...override, provide: record.token }, node);
  }

  // Exports may depend on each other in a cycle (A re-exports B, which re-exports A): propagate
  // them until nothing changes (first found wins, so the maps only grow), then check each entry.
  #collectExports(): void {
    for (let hasChanged = true; hasChanged;) {
      hasChanged = false;
      for (const node of this.modules) {
        for (const entry of node.metadata.exports ?? []) {
          for (const [token, record] of this.#entryExports(node, entry)) {
            if (node.exported.has(token)) continue;
            node.exported.set(token, record);
            hasChanged = true;
          }
        }
      }
    }
    for (const node of this.modules) {
      for (const entry of node.metadata.exports ?? []) {
        const isModule = this.#reexportedModules(node, entry).length > 0;
        if (!isModule && !node.exported.has(entry as Token))
          throw ContainerErrors.invalidExport(node.name, entry);
      }
    }
  }

  #entryExports(node: ModuleNode, entry: Token | ModuleImport): [Token, ProviderRecord][] {
    const modules = this.#reexportedModules(node, entry);
    if (modules.length > 0) return modules.flatMap((child) => [...child.exported]);
    const token = entry as Token;
    const record =
      node.providers.get(token) ?? node.imports.map((child) => child.exported.get(token)).find(Boolean);
    return record ? [[token, record]] : [];
  }

  // An entry naming an imported module (its class, or the dynamic module itself) re-exports it whole.
  #reexportedModules(node: ModuleNode, entry: Token | ModuleImport): ModuleNode[] {
    return node.imports.filter(
      (child) => child.type === entry || this.#nodes.get(entry as ModuleImport) === child,
    );
  }
}

function classNamedBy(provider: Provider | undefined): Token | undefined {
  return typeof provider === 'object' && 'useClass' in provider ? provider.useClass : undefined;
}

function isMultiToken(token: Token): boolean {
  return token instanceof InjectionToken && token.isMulti;
}

function mergeMetadata(base: ModuleMetadata, dynamic: ModuleMetadata): ModuleMetadata {
  return {
    imports: [...(base.imports ?? []), ...(dynamic.imports ?? [])],
    controllers: [...(base.controllers ?? []), ...(dynamic.controllers ?? [])],
    providers: [...(base.providers ?? []), ...(dynamic.providers ?? [])],
    exports: [...(base.exports ?? []), ...(dynamic.exports ?? [])],
  };
}

function controllerRecord(controller: Class, node: ModuleNode): ProviderRecord {
  const isController =
    typeof controller === 'function' && getOwnMetadata(MetadataKey.controller, controller) !== undefined;
  if (!isController) throw ContainerErrors.notAController(node.name, controller);
  return createRecord(controller, node);
}

import {
  Global,
  Module,
  createApplication,
  type Application,
  type Class,
  type ModuleImport,
  type ModuleMetadata,
} from 'keel';

/** A module class called `name` (boot errors name modules) that declares `metadata`. */
export function defineModule(name: string, metadata: ModuleMetadata = {}): Class {
  @Module(metadata)
  class DefinedModule {}
  Object.defineProperty(DefinedModule, 'name', { value: name });
  return DefinedModule;
}

/** Like {@link defineModule}, and marked `@Global()`. */
export function defineGlobalModule(name: string, metadata: ModuleMetadata = {}): Class {
  const type = defineModule(name, metadata);
  Global()(type);
  return type;
}

/** Boots `root` as an application, silently. */
export function boot(root: ModuleImport): Promise<Application> {
  return createApplication(root, { logger: false });
}

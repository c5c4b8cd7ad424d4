import type { ModuleMetadata } from './module-definition';
import type { ProviderRecord, RecordScope } from './provider-record';
import type { Class, Token } from './token';

/** One module of the application as the container sees it, after scanning. */
export class ModuleNode implements RecordScope {
  readonly providers = new Map<Token, ProviderRecord>();
  readonly controllers: ProviderRecord[] = [];
  readonly imports: ModuleNode[] = [];
  /** What importers of this module can see, filled in once the whole graph is scanned. */
  readonly exported = new Map<Token, ProviderRecord>();
  /** What this module's providers and controllers can inject. */
  readonly visible = new Map<Token, ProviderRecord>();

  constructor(
    readonly type: Class,
    readonly metadata: ModuleMetadata,
    readonly isGlobal: boolean,
  ) {}

  get name(): string {
    return this.type.name;
  }
}

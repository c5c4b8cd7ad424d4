import type { Class } from '../container/token';
import { SetMetadata, type ClassOrMethodDecorator } from '../decorators/hooks';
import { AuthErrors } from '../errors/auth-errors';
import type { AuthUser } from '../http/auth-user';
import { MetadataKey } from '../metadata/keys';
import { defineMetadata, getMetadata } from '../metadata/reflection';

/**
 * Marks an injectable class as the policy of `entity`: its methods are named after actions and
 * answer whether a user may do them, `update(user, article): boolean | Promise<boolean>`. List it
 * in a module's providers.
 *
 * @example
 * @Policy(Article)
 * export class ArticlePolicy {
 *   update(user: AuthUser, article: Article) { return article.authorId === user.id; }
 * }
 */
export function Policy(entity: Class): ClassDecorator {
  if (typeof entity !== 'function')
    throw new TypeError('@Policy(entity) takes the entity class it decides for');
  return (target) => {
    defineMetadata(MetadataKey.injectable, true, target);
    defineMetadata(MetadataKey.policy, entity, target);
  };
}

/** Options of {@link Can}. */
export interface CanOptions {
  /** The path parameter that holds the record's primary key: the record is loaded through the entity's repository and handed to the policy. */
  readonly from?: string;
}

/** What `@Can` records on a route. @internal */
export interface CanRecord {
  readonly action: string;
  readonly entity: Class;
  readonly from: string | undefined;
}

/**
 * Lets a route run only when the entity's policy allows the current user `action`: with `from`,
 * on the record whose key is that path parameter (404 `{"error":"not found"}` before the policy
 * when there is none); without, with no record (`create`). A refusal is 403 `{"error":"forbidden"}`.
 *
 * @example
 * @Can('update', Article, { from: 'id' }) @Put(':id') update(ctx: Context) {}
 */
export function Can(action: string, entity: Class, options: CanOptions = {}): ClassOrMethodDecorator {
  const record: CanRecord = { action, entity, from: options.from };
  return SetMetadata(MetadataKey.authCan, record);
}

type PolicyMethod = (user: AuthUser, record?: unknown) => boolean | Promise<boolean>;

/**
 * The application's policies by entity, gathered once from the container's instances: what
 * `@Can` and `auth.can` ask. @internal
 *
 * @example
 * const policies = new Policies(container.instances());
 * await policies.can(user, 'update', article);
 */
export class Policies {
  readonly #byEntity = new Map<Class, object>();

  constructor(instances: readonly unknown[]) {
    for (const instance of instances) {
      if (typeof instance !== 'object' || instance === null) continue;
      const entity = getMetadata<Class>(MetadataKey.policy, instance.constructor as Class);
      if (entity) this.#byEntity.set(entity, instance);
    }
  }

  /** The policy method of `entity` for `action`; a boot error when there is none. */
  methodOf(entity: Class, action: string): (user: AuthUser, record?: unknown) => Promise<boolean> {
    const policy = this.#find(entity);
    const method = policy && (policy as Record<string, unknown>)[action];
    if (typeof method !== 'function') throw AuthErrors.noPolicy(entity.name, action);
    return async (user, record) => Boolean(await (method as PolicyMethod).call(policy, user, record));
  }

  /** Whether `user` may `action` on `record` (an entity instance) or on `entity` itself. */
  can(user: AuthUser, action: string, record: object): Promise<boolean> {
    const entity = (typeof record === 'function' ? record : record.constructor) as Class;
    return this.methodOf(entity, action)(user, typeof record === 'function' ? undefined : record);
  }

  // A record of a subclass is decided by its base class's policy when it has none of its own.
  #find(entity: Class): object | undefined {
    for (let type: unknown = entity; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
      const policy = this.#byEntity.get(type as Class);
      if (policy) return policy;
    }
    return undefined;
  }
}

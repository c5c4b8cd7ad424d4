import { InjectionToken, type Class } from '../container/token';
import { Inject } from '../decorators/injectable';

const tokens = new WeakMap<Class, InjectionToken<unknown>>();

/**
 * The token `DatabaseModule.forFeature([entity])` provides the entity's TypeORM repository under:
 * the same token for the same entity, every time.
 *
 * @example
 * app.get(repositoryToken(Order));
 */
export function repositoryToken(entity: Class): InjectionToken<unknown> {
  let token = tokens.get(entity);
  if (!token) {
    token = new InjectionToken(`Repository<${entity.name}>`);
    tokens.set(entity, token);
  }
  return token;
}

/**
 * Injects the TypeORM repository of `entity`, which `DatabaseModule.forFeature([entity])` provides.
 *
 * @example
 * constructor(@InjectRepository(Order) private readonly orders: Repository<Order>) {}
 */
export function InjectRepository(entity: Class): ParameterDecorator {
  return Inject(repositoryToken(entity));
}

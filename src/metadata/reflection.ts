import 'reflect-metadata';

/**
 * The one place that talks to `Reflect`: decorators write through it, the container and the route
 * compiler read through it (once, at boot).
 */
export function defineMetadata(
  key: symbol,
  value: unknown,
  target: object,
  property?: string | symbol,
): void {
  if (property === undefined) Reflect.defineMetadata(key, value, target);
  else Reflect.defineMetadata(key, value, target, property);
}

/** Reads metadata set on the target itself, never inherited from a parent class. */
export function getOwnMetadata<T>(key: symbol, target: object, property?: string | symbol): T | undefined {
  const value: unknown =
    property === undefined
      ? Reflect.getOwnMetadata(key, target)
      : Reflect.getOwnMetadata(key, target, property);
  return value as T | undefined;
}

/** Reads metadata set on the target or inherited from a parent class. */
export function getMetadata<T>(key: symbol, target: object, property?: string | symbol): T | undefined {
  const value: unknown =
    property === undefined ? Reflect.getMetadata(key, target) : Reflect.getMetadata(key, target, property);
  return value as T | undefined;
}

/** Appends one entry to a list kept under `key`, copying so no other class's list is mutated. */
export function appendMetadata<T>(key: symbol, entry: T, target: object, property?: string | symbol): void {
  const list = getOwnMetadata<readonly T[]>(key, target, property) ?? [];
  defineMetadata(key, [...list, entry], target, property);
}

/** The constructor parameter types TypeScript emitted (`design:paramtypes`), if any. */
export function getConstructorParamTypes(target: object): readonly unknown[] | undefined {
  return Reflect.getOwnMetadata('design:paramtypes', target) as readonly unknown[] | undefined;
}

/** The parameter types TypeScript emitted for one method. */
export function getMethodParamTypes(prototype: object, method: string | symbol): readonly unknown[] {
  return (
    (Reflect.getMetadata('design:paramtypes', prototype, method) as readonly unknown[] | undefined) ?? []
  );
}

/** The declared type TypeScript emitted for one property (`design:type`), if any. */
export function getPropertyType(prototype: object, property: string): unknown {
  return Reflect.getMetadata('design:type', prototype, property) as unknown;
}

/**
 * The prototype that declares `property`, from `start` up: an inherited action keeps the
 * decorators of the class that declares it. @example prototypeDeclaring(OrderController.prototype, 'show')
 */
export function prototypeDeclaring(start: object, property: string | symbol): object {
  let prototype: object | null = start;
  while (prototype && !Object.hasOwn(prototype, property))
    prototype = Object.getPrototypeOf(prototype) as object | null;
  return prototype ?? start;
}

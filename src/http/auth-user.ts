/**
 * The user a request is made by, as `AuthModule`'s `user` factory finds it: empty in keel, the
 * application's own type once it augments this interface, so that `ctx.user` and
 * `@CurrentUser()` are typed without a cast.
 *
 * @example
 * declare module 'keel' {
 *   interface AuthUser { id: string; email: string }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by module augmentation
export interface AuthUser {}

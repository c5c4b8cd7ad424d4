/** The matched route, as `ctx.route` gives it. */
export interface RouteInfo {
  /** Its name, such as `orders.show`: what `urlFor` knows it by. */
  readonly name: string;
  readonly method: string;
  /** Its declared path, such as `/orders/:id`. */
  readonly path: string;
}

/** Values for a route's parameters, by name; numbers are written in decimal. */
export type RouteParams = Readonly<Record<string, string | number>>;

/** Query values to append, by name; an array repeats the name, undefined leaves it out. */
export type RouteQuery = Readonly<
  Record<string, string | number | boolean | readonly (string | number)[] | undefined>
>;

import { Exclude } from 'class-transformer';

/**
 * The order `GET /orders/:id` answers with, as an entity a user returns: a class whose internal
 * column is `@Exclude()`d, so that keel leaves that column out (by the plan it makes for the class) and
 * its JSON is the plain object's, `{ id, status }`, in that order.
 */
export class ShownOrder {
  readonly id: string;
  readonly status: string;
  @Exclude() readonly internalNote: string;

  constructor(id: string) {
    this.id = id;
    this.status = 'open';
    this.internalNote = 'packed by the night shift';
  }
}

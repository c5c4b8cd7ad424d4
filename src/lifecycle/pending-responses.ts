import type { ServerResponse } from 'node:http';

// Where a response sits in the array, kept on the response itself so removing it needs no search.
const SLOT = Symbol('keel.pendingSlot');
type Slotted = ServerResponse & { [SLOT]?: number };

/**
 * The responses of the requests in flight: added as each request arrives, deleted as its response
 * closes, in constant time (the last one takes the place of the one deleted).
 *
 * An array, not a `Set`: with one add and one delete a request, a Set's hash table fills with
 * deleted entries and is rebuilt again and again, and V8 links each table it leaves to the one
 * that replaces it (for iterators still on the old one). Once a full collection has moved the
 * table in use to the old generation, every table after it is held through that link by a dead
 * one until the next full collection, and so are the responses each held: every request of a busy
 * server was then promoted, and collecting them took a fifth of its time. An array's slots point
 * at the responses in flight and nothing else.
 *
 * @example
 * const pending = new PendingResponses();
 * pending.add(res);
 * res.on('close', () => pending.delete(res));
 */
export class PendingResponses {
  readonly #responses: Slotted[] = [];

  /** How many are in flight. */
  get size(): number {
    return this.#responses.length;
  }

  add(res: ServerResponse): void {
    (res as Slotted)[SLOT] = this.#responses.push(res) - 1;
  }

  /** Forgets `res`; one that is not here (deleted already, or never added) is ignored. */
  delete(res: ServerResponse): void {
    const responses = this.#responses;
    const slot = (res as Slotted)[SLOT];
    if (slot === undefined || responses[slot] !== res) return;
    const last = responses.pop() as Slotted;
    if (last === res) return;
    responses[slot] = last;
    last[SLOT] = slot;
  }

  /** The responses in flight now, as a copy the caller may keep while they come and go. */
  list(): ServerResponse[] {
    return [...this.#responses];
  }
}

import type { ServerResponse } from 'node:http';

// Where a response sits in the array, kept on the response itself so removing it needs no search.
const SLOT = Symbol('keel.pendingSlot');
type Slotted = ServerResponse & { [SLOT]?: number };

/**
 * The responses of the requests in flight: added as each request arrives, deleted as its response
 * closes, in constant time (the last one takes the place of the one deleted).
 *
 * An array, not a `Set`: with one add and one delete a request, a Set's hash table fills with
 * deleted entries and V8 rebuilds it every few dozen requests, allocating the new table in the
 * generation of the old one and leaving the old one pointing at the responses it held (and at its
 * successor, for iterators still on it). Once the table in use had outlived two collections (a
 * slow stretch of requests is enough), every later table was allocated in the old generation, and
 * the scavenger kept alive, then promoted, every response those dead tables pointed at: on routes
 * that await something, every request of a busy server, and a fifth of its time spent collecting
 * them. An array's slots point at the responses in flight, and it grows anew only when more
 * requests than ever before are in flight at once.
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

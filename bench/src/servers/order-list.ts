import { shownOrder } from './create-order';

/** How many orders `GET /orders` lists: about 4 KiB of JSON, above keel's compression threshold. */
const LISTED = 150;

/**
 * The list `GET /orders` answers in keel's configuration table: an answer large enough for
 * compression to matter, the same JSON compressed or not.
 */
export function orderList(): { id: string; status: string }[] {
  return Array.from({ length: LISTED }, (_, index) => shownOrder(String(1000 + index)));
}

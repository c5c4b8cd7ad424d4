/** How one client's received ids compare with the ids the publishers were answered with. */
export interface DeliveryTally {
  /** Ids received. */
  readonly received: number;
  /** Acknowledged ids, from the client's first one on, that it never received. */
  readonly missing: readonly number[];
  /** Ids received more than once. */
  readonly duplicates: number;
  /** Whether each id received is higher than the one before. */
  readonly isOrdered: boolean;
}

/**
 * Compares `received` with `acknowledged` (sorted ascending): a client owes every event from its
 * first on (it cannot have what was published before it connected); an event published but never
 * acknowledged (its publisher's answer was lost) may arrive without counting.
 *
 * @example
 * const { missing, duplicates } = tallyDelivery(client.record.ids, acknowledged);
 */
export function tallyDelivery(received: readonly number[], acknowledged: readonly number[]): DeliveryTally {
  const first = received[0];
  const seen = new Set(received);
  return {
    received: received.length,
    missing:
      first === undefined ? [...acknowledged] : acknowledged.filter((id) => id >= first && !seen.has(id)),
    duplicates: received.length - seen.size,
    isOrdered: received.every((id, index) => index === 0 || id > (received[index - 1] ?? 0)),
  };
}

/** The sum of `count` over `items`. @example sumOf(tallies, (t) => t.duplicates) */
export function sumOf<T>(items: readonly T[], count: (item: T) => number): number {
  return items.reduce((total, item) => total + count(item), 0);
}

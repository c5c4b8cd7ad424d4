/** One `order` event a client received: its id in the channel, and the id of the order it carries. */
export interface ReceivedOrder {
  readonly eventId: number;
  readonly orderId: number;
}

/** How one client's received orders compare with the orders the publishers were answered with. */
export interface DeliveryTally {
  /** Events received. */
  readonly received: number;
  /** Acknowledged orders it never received. */
  readonly missing: readonly number[];
  /** Events received more than once (the same order again). */
  readonly duplicates: number;
  /** Whether each event's id is higher than the one before: the channel's order. */
  readonly isOrdered: boolean;
}

/**
 * Compares `received` with `acknowledged` (order ids), for a client that was subscribed before the
 * first order was stored, so that it owes every one of them; an order stored but never acknowledged
 * (its publisher's answer was lost) may arrive without counting.
 *
 * @example
 * const { missing, duplicates } = tallyDelivery(client.record.orders, acknowledged);
 */
export function tallyDelivery(
  received: readonly ReceivedOrder[],
  acknowledged: readonly number[],
): DeliveryTally {
  const seen = new Set(received.map((event) => event.orderId));
  return {
    received: received.length,
    missing: acknowledged.filter((orderId) => !seen.has(orderId)),
    duplicates: received.length - seen.size,
    isOrdered: received.every(
      (event, index) => index === 0 || event.eventId > (received[index - 1]?.eventId ?? 0),
    ),
  };
}

/** The order id an `order` event's data (the order as JSON) carries. @example orderIdOf('{"id":7}') // 7 */
export function orderIdOf(data: unknown): number {
  const order = (typeof data === 'string' ? JSON.parse(data) : data) as { id?: unknown };
  if (typeof order?.id !== 'number')
    throw new Error(`an order event without an order id: ${JSON.stringify(data)}`);
  return order.id;
}

/** The sum of `count` over `items`. @example sumOf(tallies, (t) => t.duplicates) */
export function sumOf<T>(items: readonly T[], count: (item: T) => number): number {
  return items.reduce((total, item) => total + count(item), 0);
}

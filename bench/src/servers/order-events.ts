import { z } from 'zod';

/** The stream of order events the broadcast server serves, and where its events are published. */
export const ORDER_EVENTS = {
  /** `Broadcast`'s channel. */
  channel: 'orders',
  /** The event name every frame carries. */
  event: 'order',
  /** `GET`: one Server-Sent Events stream of the channel. */
  streamPath: '/orders/live',
  /** `POST` `{ sequence }`: publishes it, answers 201 `{ id }` once it is stored and announced. */
  publishPath: '/orders/events',
} as const;

/** The data of one published event: its place in the run, which every stream must see in order. */
export const orderEventSchema = z.object({ sequence: z.number().int() });
export type OrderEvent = z.infer<typeof orderEventSchema>;

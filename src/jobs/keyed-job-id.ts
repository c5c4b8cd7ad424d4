import { createHash } from 'node:crypto';

/**
 * The id a job enqueued with `singletonKey` gets: the same for the same job name and key, so that
 * the queue, which keeps one job per id, drops a second one while the first is kept. Shaped as a
 * version 5 (name-based) UUID, the type pg-boss's ids have.
 *
 * @example
 * keyedJobId('send-welcome', 'order-42') === keyedJobId('send-welcome', 'order-42') // true
 */
export function keyedJobId(name: string, key: string): string {
  const bytes = createHash('sha1').update(`keel-job\0${name}\0${key}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

import { randomUUID } from 'node:crypto';

// What an incoming id may be: 1–200 characters that are safe in a header, a log line and a URL
// alike. Anything else (a space, a quote, a newline, a longer value) could forge or break lines.
const VALID_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,200}$/;

/**
 * The id of a request: `incoming` (the client's or the balancer's `X-Request-Id`) when it is 1–200
 * characters of `A-Z a-z 0-9 . _ : @ / + = -`, otherwise a new random UUID, so that a trace across
 * services keeps one id and a client cannot put arbitrary text into the log.
 *
 * @example
 * requestIdFrom('edge-7f3a'); // 'edge-7f3a'
 * requestIdFrom('a b');       // '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'
 */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

import { randomBytes } from 'node:crypto';

// What an incoming id may be: 1–200 characters that are safe in a header, a log line and a URL
// alike. Anything else (a space, a quote, a newline, a longer value) could forge or break lines.
const VALID_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,200}$/;

// 64 random bits per process, then a count: unique across replicas and restarts (two processes
// share a prefix once in billions of starts), not guessable from outside the process, and one
// string concatenation a request where a random UUID cost a request a tenth of keel's own work.
// The count is written in base 36: V8 keeps the decimal string of each number it converts in a
// cache of its own, so a decimal count left every request's string alive through the next
// scavenge, and the young generation grew to V8's largest under load, RSS and scavenge pauses
// with it (measured as bench/README.md's "Memory after load" says).
const PROCESS_PREFIX = randomBytes(8).toString('hex');
let issued = 0;

/**
 * The id of a request: `incoming` (the client's or the balancer's `X-Request-Id`) when it is 1–200
 * characters of `A-Z a-z 0-9 . _ : @ / + = -`, otherwise a new one (this process's random prefix and
 * a count in base 36), so that a trace across services keeps one id and a client cannot put arbitrary text
 * into the log.
 *
 * @example
 * requestIdFrom('edge-7f3a'); // 'edge-7f3a'
 * requestIdFrom('a b');       // '9f86d081884c7d65-sy'
 */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && VALID_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

function newRequestId(): string {
  issued += 1;
  return `${PROCESS_PREFIX}-${issued.toString(36)}`;
}

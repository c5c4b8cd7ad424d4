import { isDeepStrictEqual } from 'node:util';
import type { BenchRoute } from '../measure/routes';

const RETRY_MS = 20;

interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

async function ask(route: BenchRoute, url: string, body?: string): Promise<Answer | undefined> {
  try {
    const response = await fetch(url, {
      method: route.method,
      body,
      // The route's own headers too: a route behind authentication answers 401 without its token.
      headers: { ...route.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      signal: AbortSignal.timeout(2000),
    });
    return { status: response.status, text: await response.text(), headers: response.headers };
  } catch {
    return undefined; // not listening yet, or reset: the caller retries until its deadline
  }
}

const shown = (answer: Answer | undefined): string =>
  answer === undefined ? 'nothing' : `${answer.status} ${answer.text.slice(0, 300)}`;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Asks `route` until it answers its healthy status (a server may still be connecting to the database),
 * then holds the answer to the route's JSON and its refused body to 400 or 422 (a 422 naming the
 * route's refused fields). Throws a message naming
 * the server, the route and what came back: a server that answers wrongly must not be measured.
 */
export async function checkRoute(server: string, baseUrl: string, route: BenchRoute, deadline: number) {
  const url = baseUrl + route.path;
  let answer = await ask(route, url, route.body);
  while (answer?.status !== route.status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    answer = await ask(route, url, route.body);
  }
  const expected = `${route.status}${route.answer === undefined ? '' : ` ${JSON.stringify(route.answer)}`}`;
  const isRight =
    answer?.status === route.status &&
    (route.answer === undefined || isDeepStrictEqual(parsed(answer.text), route.answer));
  if (!isRight) throw new Error(`${server} answered ${route.name} with ${shown(answer)}, not ${expected}`);
  // fetch decodes a compressed body, so the JSON above is the one a client reads; the header says how it came.
  for (const [name, pattern] of Object.entries(route.answerHeaders ?? {})) {
    const value = answer?.headers.get(name) ?? null;
    if (value === null || !pattern.test(value))
      throw new Error(
        `${server} answered ${route.name} with ${name}: ${value ?? 'none'}, not ${String(pattern)}`,
      );
  }
  const carried = (route.absentHeaders ?? []).filter((name) => answer?.headers.has(name));
  if (carried.length > 0)
    throw new Error(`${server} answered ${route.name} with ${carried.join(', ')}, which it must not send`);
  if (route.refusedBody === undefined) return;
  const refusal = await ask(route, url, route.refusedBody);
  if (refusal?.status !== 400 && refusal?.status !== 422)
    throw new Error(`${server} answered an invalid ${route.name} with ${shown(refusal)}, not 400 or 422`);
  // Order aside: validators report the fields in their own order.
  const named = refusal.status === 422 ? namedFields(parsed(refusal.text)).sort() : undefined;
  const wanted = route.refusedFields === undefined ? undefined : [...route.refusedFields].sort();
  if (named !== undefined && wanted !== undefined && !isDeepStrictEqual(named, wanted))
    throw new Error(
      `${server} refused an invalid ${route.name} naming ${JSON.stringify(named)}, not ${JSON.stringify(wanted)}`,
    );
}

/**
 * The fields a 422 names: a list (the hand-written servers) or an object's keys (keel, one message
 * list per field); `[]` when it names none. A 400 is each framework's own shape, and is not read.
 */
function namedFields(body: unknown): string[] {
  const fields = (body as { fields?: unknown } | undefined)?.fields;
  if (Array.isArray(fields)) return fields.map(String);
  return typeof fields === 'object' && fields !== null ? Object.keys(fields) : [];
}

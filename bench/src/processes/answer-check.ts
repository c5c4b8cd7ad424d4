import { isDeepStrictEqual } from 'node:util';
import type { BenchRoute } from '../measure/routes';

const RETRY_MS = 20;

interface Answer {
  status: number;
  text: string;
}

async function ask(url: string, method: string, body?: string): Promise<Answer | undefined> {
  try {
    const response = await fetch(url, {
      method,
      body,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(2000),
    });
    return { status: response.status, text: await response.text() };
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
 * then holds the answer to the route's JSON and its refused body to 400 or 422. Throws a message naming
 * the server, the route and what came back: a server that answers wrongly must not be measured.
 */
export async function checkRoute(server: string, baseUrl: string, route: BenchRoute, deadline: number) {
  const url = baseUrl + route.path;
  let answer = await ask(url, route.method, route.body);
  while (answer?.status !== route.status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    answer = await ask(url, route.method, route.body);
  }
  const expected = `${route.status}${route.answer === undefined ? '' : ` ${JSON.stringify(route.answer)}`}`;
  const isRight =
    answer?.status === route.status &&
    (route.answer === undefined || isDeepStrictEqual(parsed(answer.text), route.answer));
  if (!isRight) throw new Error(`${server} answered ${route.name} with ${shown(answer)}, not ${expected}`);
  if (route.refusedBody === undefined) return;
  const refusal = await ask(url, route.method, route.refusedBody);
  if (refusal?.status !== 400 && refusal?.status !== 422)
    throw new Error(`${server} answered an invalid ${route.name} with ${shown(refusal)}, not 400 or 422`);
}

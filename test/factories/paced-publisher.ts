import http from 'node:http';

/** What a paced publisher posts, where, and how often. */
export interface PacedPublisherOptions {
  /** The URL every post goes to (a replica's own `/api/orders`). */
  readonly url: string;
  readonly perSecond: number;
  /** Sent with every post, beside `content-type: application/json` (the authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The JSON body of post `n` (0, 1, ...). */
  readonly bodyOf: (n: number) => unknown;
}

/** A publisher creating resources on one server at a steady rate, and what it got back. */
export interface PacedPublisher {
  /** The ids of what the server created (the `id` of each 201 answer), in the order the answers came. */
  readonly acknowledged: number[];
  /** Events due by the schedule so far that are not acknowledged yet (0 or 1 when on schedule). */
  readonly behind: number;
  /** Posts that got no id (the server was stopping or down), by why: the publisher's own figure. */
  readonly failures: Readonly<Record<string, number>>;
  /** Stops posting; resolves once the post in flight has its answer. */
  stop(): Promise<void>;
}

// Posts in flight at once: a server answers one in tens of milliseconds on a loaded machine, so one
// at a time could not keep a rate of tens a second.
const MAX_IN_FLIGHT = 4;

/**
 * POSTs `bodyOf(n)` to `url` `perSecond` times a second, keeping the ids answered (`{ id }`, 201).
 * A post that fails (its server is draining, stopping or not started yet) is posted again on the
 * next tick, one at a time until one succeeds; a publisher that fell behind its schedule that way
 * catches up, a few posts at a time, so the events acknowledged follow the rate over the run.
 *
 * @example
 * const publisher = startPacedPublisher({ url: `${replica.url}/api/orders`, perSecond: 50 / 3, headers, bodyOf });
 * await publisher.stop();
 */
export function startPacedPublisher({
  url,
  perSecond,
  headers = {},
  bodyOf,
}: PacedPublisherOptions): PacedPublisher {
  const acknowledged: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  const inFlight = new Set<Promise<void>>();
  const startedAt = performance.now();
  const failures: Record<string, number> = {};
  let isFailing = false;
  let isRunning = true;
  let n = 0;
  const post = (): void => {
    const body = JSON.stringify(bodyOf(n++));
    const answered = postOne(url, { agent, headers, body }).then((answer) => {
      inFlight.delete(answered);
      isFailing = 'reason' in answer;
      if ('reason' in answer) failures[answer.reason] = (failures[answer.reason] ?? 0) + 1;
      else acknowledged.push(answer.id);
      // After a failure, the next try waits for the next tick.
      if (!isFailing) postWhatIsDue();
    });
    inFlight.add(answered);
  };
  const due = (): number => Math.floor(((performance.now() - startedAt) * perSecond) / 1000) + 1;
  const postWhatIsDue = (): void => {
    const limit = isFailing ? 1 : MAX_IN_FLIGHT;
    while (isRunning && acknowledged.length + inFlight.size < due() && inFlight.size < limit) post();
  };
  // The publishing rate: a tick is when the next event falls due, not a wait for something to happen.
  const ticker = setInterval(postWhatIsDue, 1000 / perSecond);
  postWhatIsDue();
  return {
    acknowledged,
    get behind() {
      return Math.max(0, due() - acknowledged.length);
    },
    failures,
    async stop() {
      isRunning = false;
      clearInterval(ticker);
      while (inFlight.size > 0) await Promise.all(inFlight);
      agent.destroy();
    },
  };
}

// The id answered, or why there was none: the status, or the socket error's code.
function postOne(
  url: string,
  { agent, headers, body }: { agent: http.Agent; headers: Readonly<Record<string, string>>; body: string },
): Promise<{ id: number } | { reason: string }> {
  return new Promise((resolve) => {
    const options: http.RequestOptions = {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': 'application/json' },
      timeout: 5000,
    };
    const req = http.request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve(
          res.statusCode === 201
            ? { id: Number((JSON.parse(text) as { id: number | string }).id) }
            : { reason: String(res.statusCode) },
        ),
      );
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ reason: error.code ?? error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ reason: error.code ?? error.message }));
    req.end(body);
  });
}

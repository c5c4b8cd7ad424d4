import { setTimeout as sleep } from 'node:timers/promises';

/** How long {@link eventually} keeps trying, how often, and what it waits for. */
export interface EventuallyOptions {
  /** Milliseconds from the first try after which the last failure is thrown. */
  readonly within: number;
  /** Milliseconds between two tries. Default: 50. */
  readonly every?: number;
  /** What the test waits for (`'the database connection'`), named in the failure. */
  readonly what?: string;
}

/**
 * Tries `attempt` until it resolves without throwing and with anything but `false`, and resolves
 * with that value; past `within` it rejects with the last failure, so a test that waits on an event
 * fails with what it was waiting for rather than with Jest's own timeout.
 *
 * @example
 * await eventually(() => expect(readLog()).toContain('job queue started'), { within: 5_000 });
 * await eventually(() => dataSource.isInitialized, { within: 5_000, what: 'the database connection' });
 * const row = await eventually(async () => (await findOrder(id)) ?? false, { within: 2_000 });
 */
export async function eventually<T>(
  attempt: () => T | Promise<T>,
  { within, every = 50, what }: EventuallyOptions,
): Promise<Exclude<T, false>> {
  const deadline = performance.now() + within;
  for (;;) {
    let failure: unknown;
    try {
      const value = await attempt();
      if (value !== false) return value as Exclude<T, false>;
      failure = new Error('still false');
    } catch (error) {
      failure = error;
    }
    if (performance.now() >= deadline) {
      if (failure instanceof Error) failure.message = `${missed(what, within)}: ${failure.message}`;
      throw failure;
    }
    await sleep(every);
  }
}

function missed(what: string | undefined, within: number): string {
  return what === undefined ? `not within ${within} ms` : `waited ${within} ms for ${what}`;
}

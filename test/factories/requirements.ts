/**
 * What some tests need from the machine (a MariaDB server, a PostgreSQL server rather than the
 * embedded one, a terminal tool) and what a run does without it. Locally those tests skip, saying
 * what is missing; with `KEEL_REQUIRE_SERVICES=1`, which CI sets after installing and starting
 * everything, each skipped block is one failing test instead, so a green CI run is a whole one.
 */
export function areServicesRequired(): boolean {
  return process.env.KEEL_REQUIRE_SERVICES === '1';
}

/** Registers `body` as a describe block when nothing is `missing`; else skips it, or fails where required. */
export function describeNeeding(missing: string | undefined, title: string, body: () => void): void {
  if (missing === undefined) return describe(title, body);
  if (areServicesRequired()) {
    return describe(title, () => {
      test('has what it needs', () => {
        throw new Error(`${missing}: KEEL_REQUIRE_SERVICES=1 lets no test skip`);
      });
    });
  }
  describe.skip(`${title} (skipped: ${missing})`, body);
}

/** Registers one test when nothing is `missing`; else skips it, or fails where required. */
export function testNeeding(
  missing: string | undefined,
  title: string,
  fn: () => Promise<unknown>,
  timeoutMs?: number,
): void {
  if (missing === undefined) return test(title, fn, timeoutMs);
  if (areServicesRequired()) {
    return test(title, () => {
      throw new Error(`${missing}: KEEL_REQUIRE_SERVICES=1 lets no test skip`);
    });
  }
  test.skip(`${title} (skipped: ${missing})`, fn);
}

/** The load generators the benchmark drives; each runs in a process of its own. */
export type LoadGenerator = 'autocannon' | 'wrk';

/** One load run, as the runner asks the load generator for it. */
export interface LoadRequest {
  generator: LoadGenerator;
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  /** Headers every request carries besides the body's type (an `Authorization`). */
  headers?: Record<string, string>;
  /** The status a healthy server answers: wrk counts only answers outside 2xx and 3xx. */
  expectedStatus: number;
  connections: number;
  durationSeconds: number;
}

/** What the load generator reports back: the figures of one run. */
export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Connection errors and timeouts: requests that got no answer. */
  errors: number;
  timeouts: number;
  /** Answers by status code (wrk: the expected status, and `other` for any answer outside 2xx–3xx). */
  statusCodes: Record<string, number>;
  durationSeconds: number;
  /** CPU the generator itself used, in percent of one core: near 100, it is the bottleneck. */
  generatorCpuPercent: number;
}

/** One load run, as the runner asks the load generator for it. */
export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
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
  /** Answers by status code. */
  statusCodes: Record<string, number>;
  durationSeconds: number;
}

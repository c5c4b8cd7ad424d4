import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Logger } from '../logging/logger';
import type { LoadSheddingSettings } from './load-shedding-options';

// How often the limits are read: the event loop's worst delay is taken over this window.
const SAMPLE_MS = 500;

/**
 * Watches the process against the `loadShedding` limits (the event loop's delay through
 * `perf_hooks.monitorEventLoopDelay`, heap in use, RSS), twice a second from the moment the
 * application serves, and says which one is passed; logs each overload when it starts and when it
 * ends. The boot's own work (starting the embedded database, the first connection and its
 * migrations) blocks the event loop for seconds and is not overload: the delay it causes is not
 * counted. Without limits it watches nothing and is never overloaded.
 *
 * @example
 * if (monitor.overload) return shed(res, monitor.retryAfterS);
 */
export class LoadMonitor {
  readonly #settings: LoadSheddingSettings | undefined;
  readonly #logger: Logger;
  readonly #exemptPaths = new Set<string>();
  #histogram: IntervalHistogram | undefined;
  #timer: NodeJS.Timeout | undefined;
  #overload: string | undefined;
  #isWatching = false;
  // Boot work still running, and whether some ended since the last reading: the window it ended in
  // holds its delay too.
  #bootWork = 0;
  #hasBootWorkEnded = false;

  constructor(settings: LoadSheddingSettings | undefined, logger: Logger) {
    this.#settings = settings;
    this.#logger = logger;
  }

  /** Which limit is passed and by how much (`"event loop delay 1204 ms > 1000 ms"`), or undefined. */
  get overload(): string | undefined {
    return this.#overload;
  }

  /** True when limits are set: requests are shed while one is passed. */
  get isShedding(): boolean {
    return this.#settings !== undefined;
  }

  /** What `Retry-After` tells a shed client. */
  get retryAfterS(): number {
    return this.#settings?.retryAfterS ?? 0;
  }

  /** Keeps `path` answering while overloaded: the health routes register theirs. @example monitor.exempt('/health') */
  exempt(path: string): void {
    this.#exemptPaths.add(path);
  }

  /** True for a path that is never shed. @example monitor.isExempt('/health/ready') */
  isExempt(path: string): boolean {
    return this.#exemptPaths.has(path);
  }

  /**
   * Starts watching, once the application is about to serve (its `onApplicationBootstrap` hooks,
   * which start the embedded database, have run); later calls do nothing.
   * @example hooks.run().then(() => monitor.watch())
   */
  watch(): void {
    if (this.#isWatching || !this.#settings) return;
    this.#isWatching = true;
    this.#start(this.#settings);
  }

  /**
   * Leaves out of the event loop's delay whatever `work` causes until it settles: work the boot
   * started that a busy process did not choose, such as the database's first connection.
   * @example monitor.ignoreDelayOf(connectFirstTime())
   */
  ignoreDelayOf(work: Promise<unknown>): void {
    this.#bootWork += 1;
    const ended = (): void => {
      this.#bootWork -= 1;
      this.#hasBootWorkEnded = true;
    };
    work.then(ended, ended);
  }

  /** Stops watching; the application's shutdown calls it. @example monitor.onApplicationShutdown() */
  onApplicationShutdown(): void {
    clearInterval(this.#timer);
    this.#histogram?.disable();
  }

  #start(settings: LoadSheddingSettings): void {
    if (settings.maxEventLoopDelayMs !== undefined) {
      this.#histogram = monitorEventLoopDelay({ resolution: 10 });
      this.#histogram.enable();
    }
    this.#timer = setInterval(() => this.#sample(settings), SAMPLE_MS);
    this.#timer.unref();
    // Memory is over its limit from the start or not: no need to wait for the first window.
    this.#sample(settings);
  }

  #sample(settings: LoadSheddingSettings): void {
    const overload = this.#passedLimit(settings);
    this.#histogram?.reset();
    if (overload !== undefined && this.#overload === undefined)
      this.#logger.warn({ overload }, 'overloaded: shedding requests until the load falls');
    if (overload === undefined && this.#overload !== undefined)
      this.#logger.info({ was: this.#overload }, 'load back under the limits');
    this.#overload = overload;
  }

  #passedLimit({
    maxEventLoopDelayMs,
    maxHeapUsedBytes,
    maxRssBytes,
  }: LoadSheddingSettings): string | undefined {
    const isBootWindow = this.#bootWork > 0 || this.#hasBootWorkEnded;
    this.#hasBootWorkEnded = false;
    const delayMs = this.#histogram && !isBootWindow ? Math.round(this.#histogram.max / 1e6) : 0;
    if (maxEventLoopDelayMs !== undefined && delayMs > maxEventLoopDelayMs)
      return `event loop delay ${delayMs} ms > ${maxEventLoopDelayMs} ms`;
    if (maxRssBytes !== undefined) {
      const rss = process.memoryUsage.rss();
      if (rss > maxRssBytes) return `rss ${rss} bytes > ${maxRssBytes} bytes`;
    }
    if (maxHeapUsedBytes !== undefined) {
      const { heapUsed } = process.memoryUsage();
      if (heapUsed > maxHeapUsedBytes) return `heap used ${heapUsed} bytes > ${maxHeapUsedBytes} bytes`;
    }
    return undefined;
  }
}

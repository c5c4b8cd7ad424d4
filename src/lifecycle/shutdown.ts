import { setTimeout as sleep } from 'node:timers/promises';
import { callLifecycleHook } from './lifecycle-hooks';
import type { Logger } from '../logging/logger';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import type { ServerDrain } from './server-drain';

/** Everything one shutdown works on. */
export interface ShutdownPlan {
  /** The providers and controllers, in the order their hooks run (dependents first). */
  readonly instances: readonly unknown[];
  /** The server to drain; none when the application never listened. */
  readonly drain: ServerDrain | undefined;
  /** The open event streams: ended with a `retry` hint once the server stops accepting. */
  readonly streams?: { endAll(): void };
  readonly logger: Logger;
  readonly delayMs: number;
  readonly timeoutMs: number;
  readonly signal: string | undefined;
}

/**
 * Runs a graceful shutdown to the end, whatever fails on the way: the delay (still serving), the
 * `beforeApplicationShutdown` hooks, the drain, the `onApplicationShutdown` hooks. Rejects with
 * `E_SHUTDOWN_FAILED` afterwards when a hook threw or the drain timed out.
 *
 * @example
 * await shutDown({ instances, drain, logger, delayMs: 0, timeoutMs: 10_000, signal: 'SIGTERM' });
 */
export async function shutDown(plan: ShutdownPlan): Promise<void> {
  const { instances, drain, logger, signal } = plan;
  const startedAt = performance.now();
  logger.info({ signal, delayMs: plan.delayMs, timeoutMs: plan.timeoutMs }, 'shutting down');
  if (plan.delayMs > 0) {
    logger.info(
      { delayMs: plan.delayMs },
      'still serving for shutdownDelayMs before the server stops accepting',
    );
    await sleep(plan.delayMs);
  }

  const failures = await callLifecycleHook(instances, 'beforeApplicationShutdown', { logger, signal });

  let timedOutAfterMs: number | undefined;
  if (!drain) plan.streams?.endAll();
  if (drain) {
    const stoppedAt = performance.now();
    logger.info({ inFlight: drain.inFlight }, 'server stops accepting; waiting for the requests in flight');
    const draining = drain.drain(plan.timeoutMs);
    // The server accepts nothing from here on: a client told to reconnect reaches another replica.
    plan.streams?.endAll();
    const { timedOut } = await draining;
    const waitedMs = Math.round(performance.now() - stoppedAt);
    if (timedOut) {
      timedOutAfterMs = plan.timeoutMs;
      logger.error(
        { inFlight: drain.inFlight, waitedMs },
        'requests still in flight after shutdownTimeoutMs; their connections were closed',
      );
    } else {
      logger.info({ waitedMs }, 'server drained');
    }
  }

  failures.push(...(await callLifecycleHook(instances, 'onApplicationShutdown', { logger, signal })));
  const tookMs = Math.round(performance.now() - startedAt);
  if (failures.length > 0 || timedOutAfterMs !== undefined) {
    const error = LifecycleErrors.shutdownFailed({ failures, timedOutAfterMs });
    logger.error({ err: error, signal, tookMs }, 'shut down with errors');
    throw error;
  }
  logger.info({ signal, tookMs }, 'shut down');
}

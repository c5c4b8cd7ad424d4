import type { Logger } from '../logging/logger';

/** The signals orchestrators (SIGTERM) and terminals (SIGINT) send to stop a process. */
export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** What signal handling drives, and how long it lets a shutdown take. */
export interface SignalHandling {
  /** Runs the graceful shutdown; resolves when it went cleanly. */
  readonly shutDown: (signal: NodeJS.Signals) => Promise<void>;
  /** True once a shutdown has started, from a signal or from `close()`. */
  readonly isShuttingDown: () => boolean;
  /** Past this, the process exits 1 however far the shutdown got. */
  readonly hardDeadlineMs: number;
  readonly logger: Logger;
}

/**
 * Makes SIGTERM and SIGINT run the graceful shutdown and then exit: 0 when it went cleanly, 1 when
 * it failed or timed out, and 1 from a backstop timer when it outlives `hardDeadlineMs` (a hook that
 * never settles). The first signal during a shutdown that `close()` started joins it the same way;
 * any later signal is logged and ignored. Returns the function that removes the handlers again.
 *
 * @example
 * const remove = handleShutdownSignals({ shutDown: (s) => app.close(s), isShuttingDown, hardDeadlineMs, logger });
 */
export function handleShutdownSignals(handling: SignalHandling): () => void {
  const { logger } = handling;
  const exit = (code: number, backstop: NodeJS.Timeout) => {
    clearTimeout(backstop);
    logger.info({ code }, 'exiting');
    process.exit(code);
  };
  let hasSignal = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (hasSignal) {
      logger.info({ signal }, 'signal received during the shutdown; the shutdown goes on');
      return;
    }
    hasSignal = true;
    logger.info({ signal, isShuttingDown: handling.isShuttingDown() }, 'signal received');
    // Not unref'd: once the server is closed, a hook that never settles leaves nothing else to keep
    // the process alive, and it would end with 0 as if the shutdown had gone cleanly.
    const backstop = setTimeout(() => {
      logger.error({ signal, hardDeadlineMs: handling.hardDeadlineMs }, 'shutdown outlived its deadline');
      exit(1, backstop);
    }, handling.hardDeadlineMs);
    // During a shutdown close() started, this joins it: the same promise, now bound to exit.
    handling.shutDown(signal).then(
      () => exit(0, backstop),
      () => exit(1, backstop),
    );
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of SHUTDOWN_SIGNALS) process.off(signal, onSignal);
  };
}

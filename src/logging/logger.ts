import type pino from 'pino';
import { InjectionToken } from '../container/token';
import { LineBatcher, type SynchronousSink } from './line-batcher';

/**
 * The logger keel writes to: pino's shape (`logger.error({ err }, 'message')`), so a pino
 * instance can be passed as it is.
 *
 * @example
 * await createApplication(AppModule, { logger: pino({ level: 'warn' }) });
 */
export interface Logger {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

const ignore = (): void => undefined;

/** What `logger: false` gives: every line dropped. */
const SILENT_LOGGER: Logger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });

// The loggers the `logger` option's default made: pino with settings keel chose (no serializers,
// formatters, hooks or mixin), whose lines keel may therefore write in pino's format itself.
const DEFAULT_LOGGERS = new WeakSet<Logger>();

/**
 * The logger for the `logger` option: pino JSON lines by default, silent with `false`. pino loads
 * only for the default, so that a silent or user-given logger costs no start-up time.
 *
 * @example createLogger(false)
 */
export function createLogger(option: Logger | false | undefined): Logger {
  if (option === false) return SILENT_LOGGER;
  if (option !== undefined) return option;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  const createPino = require('pino') as typeof pino;
  // pino's own writer to stdout (sonic-boom: partial writes, retries on a full pipe), synchronous
  // as pino's default is, fed one buffer per turn of the event loop rather than a line at a time.
  const stdout = createPino.destination({ dest: 1, sync: true, contentMode: 'buffer' });
  const logger = createPino({ name: 'keel' }, new LineBatcher(stdout as unknown as SynchronousSink));
  DEFAULT_LOGGERS.add(logger);
  return logger;
}

/**
 * Whether `logger` is one the `logger` option's default made, a pino logger with keel's settings.
 *
 * @example isDefaultLogger(createLogger(undefined)) // true
 */
export function isDefaultLogger(logger: Logger): logger is pino.Logger {
  return DEFAULT_LOGGERS.has(logger);
}

/** Whether `logger` is the one `logger: false` gives, which nothing needs to prepare lines for. @example isSilent(createLogger(false)) // true */
export function isSilent(logger: Logger): boolean {
  return logger === SILENT_LOGGER;
}

/**
 * The application's logger, injectable in every module: while a request is served, its lines
 * carry the request's `requestId`.
 *
 * @example
 * constructor(@Inject(LOGGER) private readonly logger: Logger) {}
 * this.logger.info({ orderId }, 'order shipped'); // {"requestId":"edge-7f3a","orderId":7,...}
 */
export const LOGGER = new InjectionToken<Logger>('LOGGER');

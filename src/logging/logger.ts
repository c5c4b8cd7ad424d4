import pino from 'pino';
import { InjectionToken } from '../container/token';

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

/** The logger for the `logger` option: pino JSON lines by default, silent with `false`. @example createLogger(false) */
export function createLogger(option: Logger | false | undefined): Logger {
  if (option === false) return pino({ enabled: false });
  return option ?? pino({ name: 'keel' });
}

/**
 * The application's logger, injectable in every module.
 *
 * @example
 * constructor(@Inject(LOGGER) private readonly logger: Logger) {}
 */
export const LOGGER = new InjectionToken<Logger>('LOGGER');

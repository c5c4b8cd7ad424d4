import path from 'node:path';
import type { Logger } from './logging/logger';

/** The options of `createApplication`; all are optional. */
export interface ApplicationOptions {
  /** The templates' root directory. Default: `<cwd>/views`. */
  views?: string;
  /** Bodies larger than this are answered 413. Default: `'1mb'`. */
  bodyLimit?: string | number;
  /** A pino-compatible logger, or `false` to silence keel. Default: pino, JSON lines on stdout. */
  logger?: Logger | false;
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  readonly views: string;
  readonly bodyLimit: string | number;
  readonly logger: Logger | false | undefined;
}

/** Fills in the defaults of {@link ApplicationOptions}. */
export function resolveOptions(options: ApplicationOptions): ResolvedOptions {
  return {
    views: path.resolve(options.views ?? path.join(process.cwd(), 'views')),
    bodyLimit: options.bodyLimit ?? '1mb',
    logger: options.logger,
  };
}

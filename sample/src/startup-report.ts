import { Inject, Injectable, LOGGER, type Logger, type OnApplicationBootstrap } from 'keel';
import { SampleConfig } from './config/sample-config';
import { chooseDatabase } from './database/choose-database';

/**
 * Logs the database in use and what unset settings mean, once the sample serves: a command run
 * through the entry point (`routes`, `openapi > openapi.json`) runs no bootstrap hook, so its output
 * stays the command's alone.
 */
@Injectable()
export class StartupReport implements OnApplicationBootstrap {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly config: SampleConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.info({ database: chooseDatabase(this.config).description }, 'database');
    for (const warning of unsetWarnings(this.config)) this.logger.warn({}, warning);
  }
}

// Settings left unset, each with what that means.
function unsetWarnings(config: SampleConfig): string[] {
  return [
    ...(config.ADMIN_EMAIL
      ? []
      : [
          'ADMIN_EMAIL and ADMIN_PASSWORD are not set: nobody can log in, so every write is refused (reads stay open)',
        ]),
    // In production an unset secret stops the start instead.
    ...(config.SESSION_SECRET
      ? []
      : ['SESSION_SECRET is not set: a random one is used, so sessions will not survive a restart']),
  ];
}

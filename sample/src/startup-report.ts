import { Inject, Injectable, LOGGER, type Logger, type OnApplicationBootstrap } from 'keel';

/** What the log says once the sample starts serving. */
export interface StartupFacts {
  /** The database in use, in words (never a password). */
  readonly database: string;
  /** Settings left unset, each with what that means: warnings. */
  readonly warnings: readonly string[];
}

/** The token the facts are provided under. */
export const STARTUP_FACTS = Symbol('STARTUP_FACTS');

/**
 * Logs the database in use and what unset settings mean, once the sample serves: a command run
 * through the entry point (`routes`, `openapi > openapi.json`) runs no bootstrap hook, so its output
 * stays the command's alone.
 */
@Injectable()
export class StartupReport implements OnApplicationBootstrap {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(STARTUP_FACTS) private readonly facts: StartupFacts,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.info({ database: this.facts.database }, 'database');
    for (const warning of this.facts.warnings) this.logger.warn({}, warning);
  }
}

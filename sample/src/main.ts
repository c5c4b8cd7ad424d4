import 'reflect-metadata';
import path from 'node:path';
import { createApplication, loadConfig } from 'keel';
import { AppModule } from './app.module';
import { SampleConfig } from './config/sample-config';
import { openDatabase } from './database/open-database';
import { chooseSessionSecret } from './http/session-secret';
import { welcome } from './http/welcome';

async function main(): Promise<void> {
  // Settings first: a start that must be refused is refused before a database is opened.
  const config = loadConfig(SampleConfig);
  const apiToken = config.API_TOKEN || undefined;
  const session = chooseSessionSecret(process.env);
  const database = await openDatabase(config);
  const exposesDatabaseReason = config.NODE_ENV !== 'production';
  const redisUrl = config.REDIS_URL?.trim() || undefined;
  const settings = {
    apiToken,
    sessionSecret: session.secret,
    exposesDatabaseReason,
    redisUrl,
    metricsPort: config.METRICS_PORT,
    apiWritesPerMinute: config.API_WRITES_PER_MINUTE,
  };
  const app = await createApplication(AppModule.on(database, settings), {
    views: path.join(__dirname, '..', 'views'),
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    // Past a second of event-loop delay, answer 503 "overloaded" (health routes excepted) until it falls.
    loadShedding: { maxEventLoopDelayMs: 1000 },
  });
  app.logger.info({ database: database.description }, 'database');
  if (!apiToken)
    app.logger.warn({}, 'API_TOKEN is not set: writes to /api/orders are refused with 401 (reads stay open)');
  if (session.isRandom)
    app.logger.warn(
      {},
      'SESSION_SECRET is not set: a random one is used, so sessions will not survive a restart',
    );
  app.router.get('/', welcome(database), { name: 'welcome' });
  await app.run(process.argv, config.PORT);
}

main().catch((error: unknown) => {
  // A failed start (invalid settings, a data directory it cannot write) is one clear message;
  // exit at once, since an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

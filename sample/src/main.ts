import 'reflect-metadata';
import path from 'node:path';
import { createApplication, loadConfig } from 'keel';
import { AppModule } from './app.module';
import { SampleConfig } from './config/sample-config';
import { chooseDatabase } from './database/choose-database';
import { chooseSessionSecret } from './http/session-secret';
import { welcome } from './http/welcome';

async function main(): Promise<void> {
  // Settings first: a start that must be refused is refused before anything starts. Nothing opens
  // here: the embedded database starts when the application connects, which a command never does.
  const config = loadConfig(SampleConfig);
  const apiToken = config.API_TOKEN || undefined;
  const session = chooseSessionSecret(process.env);
  const database = chooseDatabase(config);
  const exposesDatabaseReason = config.NODE_ENV !== 'production';
  const redisUrl = config.REDIS_URL?.trim() || undefined;
  const warnings = [
    ...(apiToken
      ? []
      : ['API_TOKEN is not set: writes to /api/orders are refused with 401 (reads stay open)']),
    ...(session.isRandom
      ? ['SESSION_SECRET is not set: a random one is used, so sessions will not survive a restart']
      : []),
  ];
  const settings = {
    apiToken,
    sessionSecret: session.secret,
    exposesDatabaseReason,
    redisUrl,
    metricsPort: config.METRICS_PORT,
    apiWritesPerMinute: config.API_WRITES_PER_MINUTE,
    startup: { database: database.description, warnings },
  };
  const app = await createApplication(AppModule.on(database, settings), {
    views: path.join(__dirname, '..', 'views'),
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    // Past a second of event-loop delay, answer 503 "overloaded" (health routes excepted) until it falls.
    loadShedding: { maxEventLoopDelayMs: 1000 },
  });
  app.router.get('/', welcome(database), { name: 'welcome' });
  await app.run(process.argv, config.PORT);
}

main().catch((error: unknown) => {
  // A failed start (invalid settings, a data directory it cannot write) is one clear message;
  // exit at once, since an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

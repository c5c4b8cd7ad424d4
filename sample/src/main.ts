import 'reflect-metadata';
import path from 'node:path';
import { createApplication, loadConfig } from 'keel';
import { AppModule } from './app.module';
import { SampleConfig } from './config/sample-config';
import { openDatabase } from './database/open-database';
import { welcome } from './http/welcome';

async function main(): Promise<void> {
  // Read before anything opens: the database and the shutdown delay are chosen from it.
  const config = loadConfig(SampleConfig);
  const database = await openDatabase(config);
  const apiToken = config.API_TOKEN || undefined;
  const app = await createApplication(AppModule.on(database, { apiToken }), {
    views: path.join(__dirname, '..', 'views'),
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
  });
  app.logger.info({ database: database.description }, 'database');
  if (!apiToken)
    app.logger.warn({}, 'API_TOKEN is not set: writes to /api/orders are refused with 401 (reads stay open)');
  app.router.get('/', welcome(database));
  await app.run(process.argv, config.PORT);
}

main().catch((error: unknown) => {
  // A failed start (invalid settings, a data directory it cannot write) is one clear message;
  // exit at once, since an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

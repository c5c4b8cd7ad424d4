import 'reflect-metadata';
import path from 'node:path';
import { createApplication } from 'keel';
import { AppModule } from './app.module';
import { SampleConfig } from './config/sample-config';
import { chooseDatabase } from './database/choose-database';
import { welcome } from './http/welcome';

async function main(): Promise<void> {
  // The settings are read and checked as the container is built: a start that must be refused is
  // refused before anything starts. Nothing opens here: the embedded database starts when the
  // application connects, which a command never does.
  const app = await createApplication(AppModule, {
    views: path.join(__dirname, '..', 'views'),
    // Past a second of event-loop delay, answer 503 "overloaded" (health routes excepted) until it falls.
    loadShedding: { maxEventLoopDelayMs: 1000 },
  });
  const config = app.get(SampleConfig);
  app.setShutdownDelay(config.SHUTDOWN_DELAY_MS);
  app.router.get('/', welcome(chooseDatabase(config)), { name: 'welcome' });
  await app.run(process.argv, config.PORT, config.HOST?.trim() || undefined);
}

main().catch((error: unknown) => {
  // A failed start (invalid settings, a data directory it cannot write) is one clear message;
  // exit at once, since an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

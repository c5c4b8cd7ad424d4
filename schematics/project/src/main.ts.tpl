import 'reflect-metadata';
import { createApplication } from 'keel';
import { AppModule } from './app.module';
import { Env } from './config';
import { chooseDatabase } from './database';

async function main(): Promise<void> {
  // Nothing opens here: the embedded database starts when the application connects, which a
  // command (`node dist/main.js routes`) never does.
  const app = await createApplication(AppModule, {
    // Past a second of event-loop delay, answer 503 "overloaded" (health routes excepted) until it falls.
    loadShedding: { maxEventLoopDelayMs: 1000 },
  });
  // The settings ConfigModule read and checked at boot.
  const env = app.get(Env);
  app.setShutdownDelay(env.SHUTDOWN_DELAY_MS);
  // Said only when serving: a command's output (`node dist/main.js openapi > openapi.json`) is its own.
  const bound = await app.run(process.argv, env.PORT);
  if (bound) app.logger.info({ database: chooseDatabase(env).description }, 'database');
}

main().catch((error: unknown) => {
  // Exit at once: an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

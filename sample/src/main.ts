import 'reflect-metadata';
import path from 'node:path';
import { createApplication } from 'keel';
import { AppModule } from './app.module';
import { openDatabase } from './database/open-database';
import { welcome } from './http/welcome';

// How long a stopping instance keeps serving, answering 503 on readiness, so that the orchestrator
// takes it out of the load balancer before it stops accepting (the manifests set 5 s).
const shutdownDelayMs = Number(process.env.SHUTDOWN_DELAY_MS ?? 0);

async function main(): Promise<void> {
  const database = await openDatabase(process.env);
  const apiToken = process.env.API_TOKEN || undefined;
  const app = await createApplication(AppModule.on(database, { apiToken }), {
    views: path.join(__dirname, '..', 'views'),
    shutdownDelayMs,
  });
  app.logger.info({ database: database.description }, 'database');
  if (!apiToken)
    app.logger.warn({}, 'API_TOKEN is not set: writes to /api/orders are refused with 401 (reads stay open)');
  app.router.get('/', welcome(database));
  await app.run(process.argv);
}

main().catch((error: unknown) => {
  // A failed start (an unusable DATABASE_URL, a data directory it cannot write) is one clear line;
  // exit at once, since an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

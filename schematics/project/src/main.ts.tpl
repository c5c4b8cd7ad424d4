import 'reflect-metadata';
import { createApplication } from 'keel';
import { AppModule } from './app.module';
import { openDatabase } from './database';

async function main(): Promise<void> {
  const database = await openDatabase(process.env);
  const app = await createApplication(AppModule.on(database), {
    // How long a stopping instance keeps serving, readiness at 503, while the orchestrator takes it
    // out of the load balancer (the manifests in k8s/ set 5 s).
    shutdownDelayMs: Number(process.env.SHUTDOWN_DELAY_MS ?? 0),
  });
  app.logger.info({ database: database.description }, 'database');
  await app.run(process.argv);
}

main().catch((error: unknown) => {
  // Exit at once: an embedded database already started would keep the process alive.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

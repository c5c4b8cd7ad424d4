import type { EmbeddedPostgres } from './global-setup';

/** Stops the embedded PostgreSQL server, if the global setup started one. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as EmbeddedPostgres).keelEmbeddedPostgres?.stop();
}

import { Client } from 'pg';

/** The server's version string; throws one line naming the URL when nothing answers there. */
export async function checkDatabase(url: string): Promise<string> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const result = await client.query<{ version: string }>('SELECT version()');
    return result.rows[0]?.version ?? 'unknown';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`no PostgreSQL answers at ${url} (${reason}); set DATABASE_URL to one that does`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

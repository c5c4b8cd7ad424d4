/** What the runner tells each server process: where to listen and which database to ping. */
export interface ServerEnvironment {
  port: number;
  databaseUrl: string;
}

/** Reads the environment the runner sets; a server started by hand gets the defaults. */
export function readServerEnvironment(): ServerEnvironment {
  return {
    port: Number(process.env.PORT ?? 3000),
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}

/** What the runner tells each server process: where to listen, which database, which table, which setup. */
export interface ServerEnvironment {
  port: number;
  databaseUrl: string;
  /** The seeded table `GET /api/orders/:id` reads, named by the runner for this run alone. */
  ordersTable: string;
  /** `PRODUCTION=1`: request logging and metrics on, as the framework's users set them up. */
  isProduction: boolean;
}

/** Reads the environment the runner sets; a server started by hand gets the defaults. */
export function readServerEnvironment(): ServerEnvironment {
  return {
    port: Number(process.env.PORT ?? 3000),
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    ordersTable: process.env.ORDERS_TABLE ?? 'bench_orders',
    isProduction: process.env.PRODUCTION === '1',
  };
}

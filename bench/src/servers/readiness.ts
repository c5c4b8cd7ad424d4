import type { DataSource } from 'typeorm';

// A readiness probe that can hang forever is no probe: one second, as orchestrators allow by default.
const READINESS_TIMEOUT_MS = 1000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The readiness answer the hand-written servers (Express, Fastify, node:http) give: one ping per probe. */
export async function readiness(dataSource: DataSource): Promise<{ status: number; body: object }> {
  try {
    await withTimeout(dataSource.query('SELECT 1'), READINESS_TIMEOUT_MS);
    return { status: 200, body: { status: 'ready', db: 'connected' } };
  } catch (error) {
    return {
      status: 503,
      body: { status: 'error', db: error instanceof Error ? error.message : String(error) },
    };
  }
}

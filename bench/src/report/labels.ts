import type { LoadGenerator } from '../load/load-request';

const SERVER_LABELS: Record<string, string> = {
  keel: 'keel',
  'keel-uncached': 'keel, compile cache off',
  express: 'Express',
  nest: 'NestJS',
  fastify: 'Fastify',
  node: 'node:http',
};

/** A server's name as the tables show it. */
export const serverLabel = (server: string): string => SERVER_LABELS[server] ?? server;

/** The servers keel is compared with, in the order of the ratio columns. */
export const PEERS = ['express', 'nest', 'fastify', 'node'] as const;

/** The generator whose figures the chart shows: wrk where it ran, as autocannon saturates first. */
export const chartGenerator = (generators: readonly LoadGenerator[]): LoadGenerator =>
  generators.includes('wrk') ? 'wrk' : 'autocannon';

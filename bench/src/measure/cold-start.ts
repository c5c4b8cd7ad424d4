import { SERVERS, ServerProcess, type ServerKind, type ServerLaunch } from '../processes/server-process';

/**
 * keel with Node's compile cache off: every other start of keel here reads the cache its earlier
 * starts wrote, as a replica does on its second start or from an image that ships the cache; this
 * one compiles every module, as a container's first start does.
 */
const UNCACHED_KEEL: ServerKind = {
  name: 'keel-uncached',
  script: 'keel-server.js',
  env: { NODE_DISABLE_COMPILE_CACHE: '1' },
};

/** Milliseconds from spawn to the first 200 on `/health`, per server, one entry per start. */
export type ColdStarts = Record<string, number[]>;

/** Starts and stops each server `times` times, interleaved, and records how long each took to answer. */
export async function measureColdStarts(launch: ServerLaunch, times: number): Promise<ColdStarts> {
  const starts: ColdStarts = {};
  for (let attempt = 0; attempt < times; attempt += 1) {
    for (const kind of [...SERVERS, UNCACHED_KEEL]) {
      const server = await ServerProcess.start(kind, launch);
      (starts[kind.name] ??= []).push(server.startupMs);
      await server.stop();
    }
  }
  return starts;
}

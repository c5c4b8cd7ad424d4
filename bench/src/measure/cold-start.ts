import { SERVERS, ServerProcess, type ServerLaunch } from '../processes/server-process';

/** Milliseconds from spawn to the first 200 on `/health`, per server, one entry per start. */
export type ColdStarts = Record<string, number[]>;

/** Starts and stops each server `times` times, interleaved, and records how long each took to answer. */
export async function measureColdStarts(launch: ServerLaunch, times: number): Promise<ColdStarts> {
  const starts: ColdStarts = {};
  for (let attempt = 0; attempt < times; attempt += 1) {
    for (const kind of SERVERS) {
      const server = await ServerProcess.start(kind, launch);
      (starts[kind.name] ??= []).push(server.startupMs);
      await server.stop();
    }
  }
  return starts;
}

import { spawn } from 'node:child_process';
import path from 'node:path';
import { BENCH_NODE_PATH } from '../processes/bench-node';
import { pinnedCommand } from '../processes/cpu-pinning';
import type { LoadRequest, LoadResult } from './load-request';
import { parseWrkOutput, wrkCommand } from './wrk';

const AUTOCANNON_SCRIPT = path.join(__dirname, 'load.js');

function generatorCommand(request: LoadRequest): string[] {
  return request.generator === 'wrk'
    ? wrkCommand(request)
    : [BENCH_NODE_PATH, AUTOCANNON_SCRIPT, JSON.stringify(request)];
}

/** Runs one load with the generator the request names, on `core`, and returns its figures. */
export function runLoad(request: LoadRequest, core: number | undefined): Promise<LoadResult> {
  const [command, args] = pinnedCommand(core, generatorCommand(request));
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        return reject(
          new Error(`${request.generator} exited with ${code} for ${request.method} ${request.url}`),
        );
      try {
        resolve(
          request.generator === 'wrk' ? parseWrkOutput(output, request) : (JSON.parse(output) as LoadResult),
        );
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

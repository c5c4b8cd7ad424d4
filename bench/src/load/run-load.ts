import { spawn } from 'node:child_process';
import path from 'node:path';
import { pinnedCommand } from '../processes/cpu-pinning';
import type { LoadRequest, LoadResult } from './load-request';

const LOAD_SCRIPT = path.join(__dirname, 'load.js');

/** Runs one load in the load generator's process, on `core`, and returns its figures. */
export function runLoad(request: LoadRequest, core: number | undefined): Promise<LoadResult> {
  const [command, args] = pinnedCommand(core, [process.execPath, LOAD_SCRIPT, JSON.stringify(request)]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(output) as LoadResult);
      else reject(new Error(`the load generator exited with ${code} for ${request.method} ${request.url}`));
    });
  });
}

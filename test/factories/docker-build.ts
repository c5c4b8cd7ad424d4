import { execFile } from 'node:child_process';
import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readInstructions, type Instruction } from './dockerfile';

const run = promisify(execFile);

/**
 * Copies `project` to `context` as `docker build` would send it: everything but what its
 * `.dockerignore` names (plain names, as the generated one has).
 */
export async function copyBuildContext(project: string, context: string): Promise<void> {
  const ignored = (await readFile(path.join(project, '.dockerignore'), 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  await cp(project, context, {
    recursive: true,
    filter: (source) => !ignored.includes(path.relative(project, source).split(path.sep)[0] ?? ''),
  });
}

/**
 * Runs the stages of `context`'s Dockerfile that build from the context alone (no `COPY --from`)
 * without Docker: each stage in a fresh directory under `root`, its `COPY`s from the context, its
 * `RUN`s through `sh -c` with `env`. Rejects with the output of the first step that fails.
 */
export async function runContextStages(
  context: string,
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const stages = splitStages(readInstructions(path.join(context, 'Dockerfile')));
  const built: string[] = [];
  for (const [index, stage] of stages.entries()) {
    if (stage.some(({ keyword, args }) => keyword === 'COPY' && args.startsWith('--from'))) continue;
    const workdir = path.join(root, `stage-${index}`);
    await mkdir(workdir, { recursive: true });
    for (const { keyword, args } of stage) {
      if (keyword === 'COPY') await copyInto(context, workdir, args.split(/\s+/));
      if (keyword === 'RUN')
        await run('sh', ['-c', args], { cwd: workdir, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    }
    built.push(workdir);
  }
  return built;
}

function splitStages(instructions: Instruction[]): Instruction[][] {
  const stages: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

// `COPY a b ./` puts a and b in the directory; `COPY src src` copies src to src.
async function copyInto(context: string, workdir: string, words: string[]): Promise<void> {
  const sources = words.slice(0, -1);
  const destination = words.at(-1) ?? '.';
  const intoDirectory = destination.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    const target = intoDirectory
      ? path.join(workdir, destination, path.basename(source))
      : path.join(workdir, destination);
    await cp(path.join(context, source), target, { recursive: true });
  }
}

import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The sample's image definition. */
export const SAMPLE_DOCKERFILE = path.join(__dirname, '..', '..', 'sample', 'Dockerfile');

/** One Dockerfile instruction: `HEALTHCHECK`, and the rest of its line with continuations joined. */
export interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The instructions of `file` in order, comments dropped and `\`-continued lines joined. */
export function readInstructions(file = SAMPLE_DOCKERFILE): Instruction[] {
  return readFileSync(file, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
      return { keyword: keyword.toUpperCase(), args };
    });
}

/** The instructions of the last stage, the one the image is made of. */
export function finalStage(instructions = readInstructions()): Instruction[] {
  const from = instructions.map((instruction) => instruction.keyword).lastIndexOf('FROM');
  return instructions.slice(from);
}

/** A HEALTHCHECK split into its options (`interval` → `30s`) and the command it runs. */
export interface Healthcheck {
  readonly options: Readonly<Record<string, string>>;
  /** The program and its arguments: the exec form's array, or `sh -c` and the shell form's text. */
  readonly command: readonly string[];
}

/** The HEALTHCHECK of the image, read exactly as written. */
export function readHealthcheck(instructions = finalStage()): Healthcheck {
  const healthchecks = instructions.filter((instruction) => instruction.keyword === 'HEALTHCHECK');
  if (healthchecks.length !== 1) throw new Error(`expected one HEALTHCHECK, found ${healthchecks.length}`);
  const [, flags = '', command = ''] = /^((?:--\S+\s+)*)CMD\s+(.*)$/.exec(healthchecks[0].args) ?? [];
  const options = Object.fromEntries(
    [...flags.matchAll(/--([\w-]+)=(\S+)/g)].map(([, name, value]) => [name, value]),
  );
  return {
    options,
    command: command.startsWith('[') ? (JSON.parse(command) as string[]) : ['sh', '-c', command],
  };
}

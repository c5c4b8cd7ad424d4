import { spawn, type StdioOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The repository, whose dist/ the CLI tests run. */
export const REPO_ROOT = path.join(__dirname, '..', '..');

/** The compiled `framework` program. */
export const FRAMEWORK = path.join(REPO_ROOT, 'dist', 'cli', 'framework.js');

/** How a program run ended. */
export interface ProgramRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time from spawn to exit. */
  readonly ms: number;
}

/** How to run a program: where, with what stdin, and for how long at most. */
export interface RunOptions {
  readonly cwd?: string;
  /** `pipe` (the default) is a pipe kept open and never written to: a program that reads it hangs. */
  readonly stdin?: 'pipe' | 'ignore';
  readonly timeoutMs?: number;
  /** Added to the environment; a name given `undefined` is left out of it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The most a file may grow to, in 512-byte blocks (`ulimit -f`): a write past it fails with EFBIG. */
  readonly fileSizeLimit?: number;
}

/** Runs `node script ...args` to its end; a run past `timeoutMs` is killed and reported as such. */
export function runNode(
  script: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProgramRun> {
  const startedAt = performance.now();
  const stdio: StdioOptions = [options.stdin ?? 'pipe', 'pipe', 'pipe'];
  const command = [process.execPath, script, ...args];
  const limited =
    options.fileSizeLimit === undefined
      ? command
      : ['sh', '-c', `ulimit -f ${options.fileSizeLimit} && exec "$@"`, 'sh', ...command];
  const [program = process.execPath, ...programArgs] = limited;
  const child = spawn(program, programArgs, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timeoutMs = options.timeoutMs ?? 15_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - startedAt;
      if (signal) stderr += `\n(killed by ${signal} after ${Math.round(ms)} ms; timeout ${timeoutMs} ms)`;
      resolve({ code, stdout, stderr, ms });
    });
  });
}

/** Runs the compiled `framework` program with `args`. */
export function runFramework(args: readonly string[], options: RunOptions = {}): Promise<ProgramRun> {
  return runNode(FRAMEWORK, args, options);
}

const scratchDirectories: string[] = [];

/**
 * A project in a fresh temporary directory holding `files` (path → content), whose
 * `node_modules/keel` is this repository (so `import … from 'keel'` loads dist/) and whose
 * `node_modules/@types` is the repository's.
 */
export function scratchProject(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'keel-cli-'));
  scratchDirectories.push(root);
  mkdirSync(path.join(root, 'node_modules'));
  symlinkSync(REPO_ROOT, path.join(root, 'node_modules', 'keel'), 'dir');
  symlinkSync(
    path.join(REPO_ROOT, 'node_modules', '@types'),
    path.join(root, 'node_modules', '@types'),
    'dir',
  );
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

/** Removes every scratch project made so far. */
export function removeScratchProjects(): void {
  for (const root of scratchDirectories.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** A root module in the shape the generator edits, with the controllers given. */
export function appModuleSource(controllers = ''): string {
  return `import { Module } from 'keel';\n\n@Module({\n  controllers: [${controllers}],\n})\nexport class AppModule {}\n`;
}

/** A scratch project whose one source file is an empty root module at `src/app.module.ts`. */
export function appModuleProject(): string {
  return scratchProject({ 'src/app.module.ts': appModuleSource() });
}

/** A keel application as a user lays it out: package.json, tsconfig, root module, entry point. */
export const SCRATCH_APP: Readonly<Record<string, string>> = {
  'package.json': JSON.stringify({ name: 'scratch', private: true, type: 'commonjs' }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'es2023',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      rootDir: 'src',
      outDir: 'dist',
      strict: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      types: ['node'],
    },
    include: ['src'],
  }),
  'src/app.module.ts': appModuleSource(),
  'src/main.ts': [
    "import { createApplication } from 'keel';",
    "import { AppModule } from './app.module';",
    '',
    'async function main(): Promise<void> {',
    '  const app = await createApplication(AppModule);',
    '  await app.run(process.argv);',
    '}',
    '',
    'void main();',
    '',
  ].join('\n'),
};

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliErrors } from '../errors/cli-errors';

/** What compiling one source file came to: its output written (or removed), or the compiler's message. */
export type CompileOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

// The part of @swc/core's API the dev server calls; the project's own copy is loaded at run time.
interface Swc {
  transform(source: string, options: Record<string, unknown>): Promise<{ code: string }>;
}

// As the `.swcrc` of `framework new`: without legacyDecorator + decoratorMetadata, injection by type breaks.
const DEFAULT_SWCRC: Readonly<Record<string, unknown>> = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2023',
  },
  sourceMaps: 'inline',
};

const SWC_VERSION_OF_NEW_PROJECTS = '1.16.22';

/**
 * Compiles a project's `src/*.ts` into `dist/*.js` one file at a time with the project's own
 * `@swc/core` and `.swcrc`, as `tsc -p tsconfig.build.json` lays them out; types are stripped,
 * never checked.
 *
 * @example
 * const compiler = new DevCompiler('/home/ada/my-app');
 * await compiler.compile('src/http/controllers/home.ts'); // writes dist/http/controllers/home.js
 */
export class DevCompiler {
  readonly #root: string;
  readonly #swc: Swc;
  readonly #options: Record<string, unknown>;

  constructor(root: string) {
    this.#root = root;
    this.#swc = loadSwc(root);
    this.#options = compilerOptions(root);
  }

  /** Every `.ts` file under `src/` but declaration files, relative to the root (`src/main.ts`). */
  sources(): string[] {
    const walk = (dir: string): string[] =>
      readdirSync(path.join(this.#root, dir), { withFileTypes: true }).flatMap((entry) => {
        const relative = path.join(dir, entry.name);
        if (entry.isDirectory()) return walk(relative);
        return isSource(relative) ? [relative] : [];
      });
    return walk('src');
  }

  /** Writes the output of `source` (relative to the root), or removes it when the source is gone. */
  async compile(source: string): Promise<CompileOutcome> {
    const output = path.join(this.#root, outputOf(source));
    const file = path.join(this.#root, source);
    if (!existsSync(file)) {
      await rm(output, { force: true });
      return { ok: true };
    }
    try {
      const { code } = await this.#swc.transform(await readFile(file, 'utf8'), {
        ...this.#options,
        // Relative to the root, so the compiler's messages name `src/…:line:column`.
        filename: source,
        cwd: this.#root,
        sourceFileName: path.relative(path.dirname(output), file),
      });
      await mkdir(path.dirname(output), { recursive: true });
      await writeFile(output, code);
      return { ok: true };
    } catch (error) {
      return { ok: false, message: compilerMessage(error) };
    }
  }
}

/**
 * Whether a path (relative to the root) is a source the dev server compiles.
 *
 * @example
 * isSource('src/app.module.ts'); // true; isSource('src/types.d.ts') → false
 */
export function isSource(file: string): boolean {
  return file.endsWith('.ts') && !file.endsWith('.d.ts');
}

// `src/a/b.ts` → `dist/a/b.js`, as tsconfig.build.json's rootDir src and outDir dist.
function outputOf(source: string): string {
  return path.join('dist', path.relative('src', source)).replace(/\.ts$/, '.js');
}

function loadSwc(root: string): Swc {
  try {
    return createRequire(path.join(root, 'package.json'))('@swc/core') as Swc;
  } catch {
    throw CliErrors.devCompilerMissing(SWC_VERSION_OF_NEW_PROJECTS);
  }
}

// The project's .swcrc, with the module system its package.json says: the .swcrc of an ES module
// project says CommonJS, for Jest, while `node dist/main.js` there loads ES modules.
function compilerOptions(root: string): Record<string, unknown> {
  const swcrcFile = path.join(root, '.swcrc');
  const options = existsSync(swcrcFile)
    ? (JSON.parse(readFileSync(swcrcFile, 'utf8')) as Record<string, unknown>)
    : DEFAULT_SWCRC;
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { type?: string };
  const module = { ...(options.module as object), type: pkg.type === 'module' ? 'es6' : 'commonjs' };
  return { ...options, module, swcrc: false };
}

// SWC's message ends with the Rust stack when RUST_BACKTRACE is set: the user's part comes first.
function compilerMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split(/\n\s*Stack backtrace:/)[0]?.trimEnd() ?? text;
}

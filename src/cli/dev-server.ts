import { existsSync, watch } from 'node:fs';
import path from 'node:path';
import { CliErrors } from '../errors/cli-errors';
import { messageOf } from '../errors';
import { AppProcess, type Say } from './app-process';
import { DevCompiler, isSource } from './dev-compiler';

// Editors write a file in several steps (truncate, write, rename): one rebuild for all of them.
const SETTLE_MS = 25;

/**
 * Serves the project at `root` while it is edited: compiles `src/` into `dist/`, runs
 * `node dist/main.js`, and on each change under `src/` compiles the files that changed and restarts
 * the application; a file that does not compile stops it, with the compiler's message, until it
 * does. Resolves once SIGINT or SIGTERM has stopped the application and the watcher.
 *
 * @example
 * await runDevServer('/home/ada/my-app', (line) => process.stderr.write(`${line}\n`));
 */
export async function runDevServer(root: string, say: Say): Promise<void> {
  if (!existsSync(path.join(root, 'src', 'main.ts'))) throw CliErrors.devNoEntry(root);
  const compiler = new DevCompiler(root);
  const app = new AppProcess(root, say);
  const failures = new Map<string, string>();
  const changed = new Set<string>();
  let settling: NodeJS.Timeout | undefined;
  let work = Promise.resolve();

  // Compiles what changed, then restarts: the old application answers until the new code is on disk.
  const rebuild = async (files: readonly string[]): Promise<void> => {
    const startedAt = performance.now();
    const outcomes = await Promise.all(files.map((file) => compiler.compile(file)));
    outcomes.forEach((outcome, index) => {
      const file = files[index] as string;
      if (outcome.ok) failures.delete(file);
      else failures.set(file, outcome.message);
    });
    const elapsed = Math.round(performance.now() - startedAt);
    await app.stop();
    if (failures.size > 0) {
      for (const message of failures.values()) say(message);
      say(`${failures.size} file(s) do not compile; the application starts again once they do`);
      return;
    }
    say(`compiled ${files.length} file(s) in ${elapsed} ms`);
    app.start();
  };

  say('types are not checked on reload: `npm test` (tsc --noEmit) checks them');
  await rebuild(compiler.sources());

  const watcher = watch(path.join(root, 'src'), { recursive: true }, (_event, name) => {
    const file = name === null ? undefined : path.join('src', name.toString());
    if (file === undefined || !isSource(file)) return;
    changed.add(file);
    clearTimeout(settling);
    settling = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      work = work.then(() => rebuild(files)).catch((error: unknown) => say(messageOf(error)));
    }, SETTLE_MS);
  });
  // Whatever ends this process, the application does not outlive it.
  const killApp = () => app.kill();
  process.once('exit', killApp);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  say(`${signal}: stopping the application and the watcher`);
  watcher.close();
  clearTimeout(settling);
  await work;
  await app.stop();
  process.off('exit', killApp);
}

import { spawn, type ChildProcess } from 'node:child_process';

// Past keel's own shutdown deadline (delay + timeout + grace, 11 s by default): only a process
// that ignores SIGTERM is still there.
const STOP_DEADLINE_MS = 20_000;

/** Where the dev server's own lines go. */
export type Say = (line: string) => void;

/**
 * The application the dev server runs, `node dist/main.js` in the project, its output the
 * terminal's: started, and stopped with SIGTERM and a wait for its exit, so that its embedded
 * database closes (and releases its data directory) before the next one opens it.
 *
 * @example
 * const app = new AppProcess('/home/ada/my-app', console.error);
 * app.start(); await app.stop();
 */
export class AppProcess {
  readonly #root: string;
  readonly #say: Say;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  constructor(root: string, say: Say) {
    this.#root = root;
    this.#say = say;
  }

  /** Starts `node dist/main.js`; an application that exits by itself is reported, and left stopped. */
  start(): void {
    // Source maps, so that a stack trace names the .ts line (the compiler writes them inline).
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
      cwd: this.#root,
      stdio: 'inherit',
    });
    this.#child = child;
    this.#exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        if (this.#child === child) {
          this.#child = undefined;
          this.#say(
            `the application exited (${signal ?? `code ${code}`}); it starts again on the next change`,
          );
        }
        resolve();
      }),
    );
    this.#say(`started node dist/main.js (pid ${child.pid})`);
  }

  /** Sends SIGTERM and resolves once the application has exited (SIGKILL past a deadline). */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child) return this.#exited;
    child.kill('SIGTERM');
    const deadline = setTimeout(() => {
      this.#say(`the application did not exit within ${STOP_DEADLINE_MS} ms of SIGTERM; killing it`);
      child.kill('SIGKILL');
    }, STOP_DEADLINE_MS);
    await this.#exited;
    clearTimeout(deadline);
  }

  /** Kills the application at once: for the dev server's own exit, when nothing can be awaited. */
  kill(): void {
    this.#child?.kill('SIGKILL');
  }
}

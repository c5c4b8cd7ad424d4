import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { DatabaseErrors } from '../errors/database-errors';

/** A claim on a data directory: released when the embedded database stops. */
export interface DataDirLock {
  release(): Promise<void>;
}

// Taking a stale file over can race with another process doing the same: each round either claims
// the file, finds its live owner, or clears a stale one; a few rounds settle any such race.
const ROUNDS = 5;

/**
 * Claims `dataDir` for this process with a pid file beside it (`<dataDir>.pid`), the way
 * PostgreSQL's postmaster.pid does: two processes on one embedded database would each keep their
 * own buffers and overwrite each other's pages. A pid file whose process is gone (a crash, a
 * SIGKILL) is stale and taken over.
 *
 * @example
 * const lock = await lockDataDir('.data/postgres'); // throws E_DATA_DIR_IN_USE while another process holds it
 * await lock.release();
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const pidFile = `${dataDir}.pid`;
  for (let round = 0; round < ROUNDS; round++) {
    if (await createPidFile(pidFile)) return { release: () => unlink(pidFile).catch(() => undefined) };
    const content = await readFile(pidFile, 'utf8').catch(() => undefined);
    if (content === undefined) continue; // released or taken over meanwhile: try again
    const owner = Number.parseInt(content, 10);
    if (isProcessRunning(owner)) {
      throw DatabaseErrors.dataDirInUse(dataDir, owner);
    }
    await removeIfUnchanged(pidFile, content);
  }
  throw DatabaseErrors.dataDirContended(pidFile);
}

// Written whole under a name of its own, then linked into place: the pid file never exists without
// its pid, so nobody can read it half-written and take it for stale.
async function createPidFile(pidFile: string): Promise<boolean> {
  const draft = `${pidFile}.${process.pid}.new`;
  await writeFile(draft, `${process.pid}\n`);
  try {
    await link(draft, pidFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

// Moving the file aside is atomic, so exactly one process gets it. If what it got is no longer the
// stale file it read (another process took that one over first and wrote its own), it is put back.
async function removeIfUnchanged(pidFile: string, staleContent: string): Promise<void> {
  const aside = `${pidFile}.${process.pid}.stale`;
  try {
    await rename(pidFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== staleContent) await link(aside, pidFile).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** Whether a process `pid` runs on this machine (one of another user's counts). @example isProcessRunning(process.pid) // true */
export function isProcessRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

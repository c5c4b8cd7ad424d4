import { readFile, unlink, writeFile } from 'node:fs/promises';

/** A claim on a data directory: released at shutdown. */
export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Claims `dataDir` for this process with a pid file beside it (`<dataDir>.pid`), the way
 * PostgreSQL's postmaster.pid does: two processes on one embedded database would each keep their
 * own buffers and overwrite each other's pages. A pid file whose process is gone (a crash, a
 * SIGKILL) is stale and taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const pidFile = `${dataDir}.pid`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(pidFile, `${process.pid}\n`, { flag: 'wx' });
      return { release: () => unlink(pidFile).catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
    if (isRunning(owner)) {
      throw new Error(
        `the embedded database in ${dataDir} is in use by process ${owner}: stop it, or set DATA_DIR`,
      );
    }
    await unlink(pidFile).catch(() => undefined);
  }
  throw new Error(`cannot claim ${pidFile}: another process keeps taking it`);
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

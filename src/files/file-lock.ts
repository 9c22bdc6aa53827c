import { open, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isErrnoException } from './atomic-write.ts';

/** A lock held longer than this is a holder's that died inside it (it holds one for milliseconds). */
const STALE_MS = 10_000;
/** How long a change waits for the lock before it gives up, saying so. */
const WAIT_MS = 15_000;
const RETRY_MS = 10;

/** The lock could not be had in time; the message names the file. */
export class FileLockError extends Error {
  override name = 'FileLockError';
}

/**
 * Runs `task` holding `<path>.lock`, created exclusively, so that processes sharing a folder (replicas)
 * read, change and write one file one at a time: a read-then-write of one never interleaves with
 * another's and loses its change. A lock older than STALE_MS is a crashed holder's and is removed.
 */
export async function withFileLock<T>(path: string, task: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o644);
      await handle.writeFile(`${hostname()} ${process.pid}\n`).finally(() => handle.close());
      break;
    } catch (error) {
      if (!isErrnoException(error) || error.code !== 'EEXIST') throw error;
    }
    const held = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (held > STALE_MS) await rm(lock, { force: true });
    else if (Date.now() > deadline)
      throw new FileLockError(`${path} stayed locked by another process (${lock}) for ${WAIT_MS / 1000} s.`);
    else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  try {
    return await task();
  } finally {
    await rm(lock, { force: true });
  }
}

import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** How an atomic write treats a file that already exists at the target path. */
export interface AtomicWriteOptions {
  /**
   * `true` replaces an existing file; `false` refuses with a `FileExistsError` so that nothing is
   * overwritten by accident (the check and the write are one atomic step: a hard link, not a stat).
   * @default true
   */
  overwrite?: boolean;
  /**
   * Called after the temporary file is written and flushed, just before it is moved into place.
   * Tests use it to kill the process at the worst moment; production code leaves it unset.
   */
  beforeCommit?: (tempPath: string) => void | Promise<void>;
}

/** Writes a large file piece by piece through `write`, e.g. JSON produced while yielding to the event loop. */
export type ChunkProducer = (write: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>;

/** The target of a no-overwrite write already exists. */
export class FileExistsError extends Error {
  override name = 'FileExistsError';
  constructor(readonly path: string) {
    super(`atomic write: ${path} already exists`);
  }
}

/**
 * Temporary files start with a dot and end in `.tmp`, so corpus loading skips any a crash left behind,
 * and they live in the target's folder so the final rename never crosses a file system.
 */
export function temporaryPathFor(target: string): string {
  const suffix = randomBytes(6).toString('hex');
  return path.join(path.dirname(target), `.${path.basename(target)}.${suffix}.tmp`);
}

/** Whether a file name is one of our temporary files (or any other dotfile the loader must ignore). */
export function isTemporaryName(fileName: string): boolean {
  return fileName.startsWith('.') || fileName.endsWith('.tmp');
}

/**
 * Writes `data` to `target` so that readers see either the old file or the complete new one, never
 * a half-written file, even if the process dies mid-way: temp file in the same folder, fsync, rename
 * (or hard link when `overwrite` is false), then fsync of the folder so the rename itself is durable.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | ChunkProducer,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const overwrite = options.overwrite ?? true;
  const temp = temporaryPathFor(target);
  let committed = false;
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      if (typeof data === 'function') {
        await data(async (chunk) => {
          if (typeof chunk === 'string') await handle.write(chunk);
          else await handle.write(chunk);
        });
      } else {
        await handle.writeFile(data);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeCommit?.(temp);
    if (overwrite) {
      await rename(temp, target);
      committed = true;
    } else {
      try {
        await link(temp, target);
      } catch (error) {
        if (isErrnoException(error) && error.code === 'EEXIST') throw new FileExistsError(target);
        throw error;
      }
    }
    await syncFolder(path.dirname(target));
  } finally {
    if (!committed) await unlink(temp).catch(() => undefined);
  }
}

/** Removes `target` and makes the removal durable. Resolves `false` when there was nothing to remove. */
export async function removeFileDurably(target: string): Promise<boolean> {
  try {
    await unlink(target);
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return false;
    throw error;
  }
  await syncFolder(path.dirname(target));
  return true;
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on a directory; the rename has still happened.
    if (!(isErrnoException(error) && (error.code === 'EINVAL' || error.code === 'EISDIR'))) throw error;
  } finally {
    await handle.close();
  }
}

export function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

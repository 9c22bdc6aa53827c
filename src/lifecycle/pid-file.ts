import { readFileSync, unlinkSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic-write.ts';

/**
 * Writes this process's id to `file`, so an operator can `kill -HUP "$(cat file)"` the process that
 * reloads (not npm, nor a shell around it). Returns a function that removes the file again, unless
 * another process has written its own id there since.
 */
export async function writePidFile(file: string): Promise<() => void> {
  await writeFileAtomic(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      // Already gone: nothing to tidy.
    }
  };
}

import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isTemporaryName } from '../files/atomic-write.ts';

/** Options of {@link watchCorpus}. */
export interface CorpusWatchOptions {
  /** CORPUS_PATH: a folder, or one `.jsonl` file (then its folder is watched for that name). */
  corpusPath: string;
  /** Called once the folder has been quiet for `debounceMs` after a change. */
  onChange: () => void;
  /**
   * Quiet time before reloading, in milliseconds: an editor saving, or a copy of many files, produces
   * bursts of events that should cause one reload, not dozens.
   * @default 1000
   */
  debounceMs?: number;
}

/**
 * Watches the corpus for changes (WATCH_CORPUS=true) and calls `onChange` once per burst. Temporary
 * files of atomic writes are ignored; the rename that completes a write is what counts.
 */
export async function watchCorpus(options: CorpusWatchOptions): Promise<{ close(): void }> {
  const info = await stat(options.corpusPath);
  const folder = info.isDirectory() ? options.corpusPath : path.dirname(options.corpusPath);
  const only = info.isDirectory() ? undefined : path.basename(options.corpusPath);
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(folder, (_event, name) => {
    const fileName = name?.toString();
    if (fileName !== undefined && (isTemporaryName(fileName) || (only !== undefined && fileName !== only)))
      return;
    clearTimeout(timer);
    timer = setTimeout(options.onChange, options.debounceMs ?? 1000);
  });
  // A watch error (folder deleted) must not crash the bot; reloads still work by command.
  watcher.on('error', () => watcher.close());
  return {
    close: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

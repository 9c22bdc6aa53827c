import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchCorpus } from '../../src/lifecycle/corpus-watch.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let folder: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
});
afterEach(() => cleanup());

describe('watchCorpus', () => {
  it('calls back once for a burst of changes, after the folder has been quiet', async () => {
    let calls = 0;
    const watcher = await watchCorpus({ corpusPath: folder, debounceMs: 150, onChange: () => calls++ });
    try {
      for (let i = 0; i < 5; i++) {
        await writeFile(path.join(folder, `article-${i}.md`), LIGHTHOUSE);
        await sleep(20);
      }
      expect(calls).toBe(0);
      await sleep(400);
      expect(calls).toBe(1);
    } finally {
      watcher.close();
    }
  });

  it('ignores the temporary files of atomic writes', async () => {
    let calls = 0;
    const watcher = await watchCorpus({ corpusPath: folder, debounceMs: 50, onChange: () => calls++ });
    try {
      await writeFile(path.join(folder, '.lighthouse.md.abc123.tmp'), LIGHTHOUSE);
      await sleep(300);
      expect(calls).toBe(0);
    } finally {
      watcher.close();
    }
  });
});

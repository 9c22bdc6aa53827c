import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Corpus } from '../../src/corpus/article.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { CorpusStore, CorpusStoreError } from '../../src/corpus-editing/corpus-store.ts';
import { articleText, copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const CRASH_SCRIPT = fileURLToPath(new URL('./fixtures/crash-during-write.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

let folder: string;
let cleanup: () => Promise<void>;
let corpus: Corpus;
let store: CorpusStore;

beforeEach(async () => {
  ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
  corpus = await loadCorpus(folder);
  store = new CorpusStore({ folder });
});
afterEach(() => cleanup());

async function refusal(promise: Promise<unknown>): Promise<CorpusStoreError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CorpusStoreError);
  return error as CorpusStoreError;
}

async function folderSnapshot(): Promise<Record<string, string>> {
  const names = (await readdir(folder)).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await readFile(path.join(folder, name), 'utf8')])),
  );
}

describe('CorpusStore.prepare', () => {
  it('derives the id and file name from the uploaded name and validates the article', async () => {
    const prepared = await store.prepare('Lighthouse Keeper Rescue.md', bytes(LIGHTHOUSE), corpus);
    expect(prepared.kind).toBe('add');
    expect(prepared.fileName).toBe('lighthouse-keeper-rescue.md');
    expect(prepared.article.id).toBe('lighthouse-keeper-rescue');
    expect(prepared.article.title).toBe('Lighthouse keeper rescues stranded kayakers off Gravelines');
    expect(prepared.article.passages[0]?.text).toMatch(/^A lighthouse keeper at Gravelines/);
  });

  it('refuses a file that is not UTF-8 and writes nothing', async () => {
    const before = await folderSnapshot();
    const latin1 = Uint8Array.from([...bytes('---\ntitle: Caf'), 0xe9, ...bytes('\n---\n\nUn caf\n')]);
    const error = await refusal(store.prepare('cafe.md', latin1, corpus));
    expect(error.code).toBe('not-utf8');
    expect(await folderSnapshot()).toEqual(before);
  });

  it('refuses an article without a title, listing the problem', async () => {
    const error = await refusal(
      store.prepare('untitled.md', bytes('---\npublisher: Nobody\n---\n\nText.\n'), corpus),
    );
    expect(error.code).toBe('invalid-article');
    expect(error.problems).toContainEqual({ file: 'untitled.md', line: 1, message: 'title is required' });
  });

  it('refuses a file larger than the limit before decoding it', async () => {
    const small = new CorpusStore({ folder, maxBytes: 1024 });
    const error = await refusal(
      small.prepare('big.md', bytes(articleText('Big', 'word '.repeat(400))), corpus),
    );
    expect(error.code).toBe('too-large');
    expect(error.message).toContain('at most 1 KiB');
  });

  it.each([
    ['../escape.md'],
    ['..\\escape.md'],
    ['/etc/passwd.md'],
    ['nested/dir.md'],
    ['.hidden.md'],
    ['evil\u0000.md'],
    ['line\nbreak.md'],
    ['C:evil.md'],
    ['script.js'],
    ['no-extension'],
    ['🔥🔥.md'],
  ])('refuses the hostile or unusable name %j', async (name) => {
    const error = await refusal(store.prepare(name, bytes(LIGHTHOUSE), corpus));
    expect(error.code).toBe('hostile-name');
    expect(await readdir(folder)).toHaveLength(3);
  });

  it('explains that a corpus kept as one .jsonl file cannot be edited article by article', async () => {
    const file = path.join(folder, '..', 'articles.jsonl');
    await writeFile(file, `${JSON.stringify({ id: 'one', title: 'One', text: 'A paragraph.' })}\n`);
    const jsonl = new CorpusStore({ folder: file });
    const error = await refusal(jsonl.prepare('lighthouse.md', bytes(LIGHTHOUSE), corpus));
    expect(error.code).toBe('not-a-folder');
  });

  it('calls an upload with an existing id a replace, and refuses one that would shadow it under another extension', async () => {
    const replace = await store.prepare('teteghem-mayor-threatened-with-gun.md', bytes(LIGHTHOUSE), corpus);
    expect(replace.kind).toBe('replace');
    const clash = await refusal(
      store.prepare('teteghem-mayor-threatened-with-gun.txt', bytes('Headline\n\nBody text here.\n'), corpus),
    );
    expect(clash.code).toBe('exists');
  });
});

describe('CorpusStore.write and remove', () => {
  it('adds a file that loads as part of the corpus, and its undo removes it again', async () => {
    const undo = await store.write(await store.prepare('lighthouse.md', bytes(LIGHTHOUSE), corpus));
    const after = await loadCorpus(folder);
    expect(after.articles.map((article) => article.id)).toContain('lighthouse');
    await undo();
    expect((await loadCorpus(folder)).version).toBe(corpus.version);
  });

  it('never lets an add overwrite a file that appeared after the preview', async () => {
    const prepared = await store.prepare('lighthouse.md', bytes(LIGHTHOUSE), corpus);
    await writeFile(path.join(folder, 'lighthouse.md'), articleText('Someone else', 'Written meanwhile.'));
    const error = await refusal(store.write(prepared));
    expect(error.code).toBe('exists');
    expect(await readFile(path.join(folder, 'lighthouse.md'), 'utf8')).toContain('Someone else');
  });

  it('replaces an article in place and its undo restores the old text byte for byte', async () => {
    const file = path.join(folder, 'teteghem-mayor-threatened-with-gun.md');
    const original = await readFile(file, 'utf8');
    const undo = await store.write(
      await store.prepare('teteghem-mayor-threatened-with-gun.md', bytes(LIGHTHOUSE), corpus),
    );
    expect(await readFile(file, 'utf8')).toBe(LIGHTHOUSE);
    await undo();
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('refuses a replace whose file was removed after the preview, writing nothing', async () => {
    const prepared = await store.prepare('teteghem-mayor-threatened-with-gun.md', bytes(LIGHTHOUSE), corpus);
    await store.remove(store.prepareRemoval('teteghem-mayor-threatened-with-gun', corpus));
    const error = await refusal(store.write(prepared));
    expect(error.code).toBe('gone');
    expect(await readdir(folder)).toHaveLength(2);
  });

  it('removes an article file and its undo writes it back', async () => {
    const undo = await store.remove(store.prepareRemoval('teteghem-mayor-threatened-with-gun', corpus));
    expect((await loadCorpus(folder)).articles.map((article) => article.id)).not.toContain(
      'teteghem-mayor-threatened-with-gun',
    );
    await undo();
    expect((await loadCorpus(folder)).version).toBe(corpus.version);
  });

  it('refuses to remove an unknown id', () => {
    expect(() => store.prepareRemoval('no-such-article', corpus)).toThrow(
      /no article with id "no-such-article"/,
    );
  });

  it('leaves the corpus whole when the process dies between writing and renaming', async () => {
    const before = await folderSnapshot();
    for (const name of ['lighthouse.md', 'teteghem-mayor-threatened-with-gun.md']) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', CRASH_SCRIPT, folder, name, LIGHTHOUSE], {
        cwd: REPO,
        encoding: 'utf8',
      });
      expect(child.signal).toBe('SIGKILL');
    }
    const names = await readdir(folder);
    const leftovers = names.filter((name) => name.endsWith('.tmp'));
    expect(leftovers).toHaveLength(2);
    expect(leftovers.every((name) => name.startsWith('.'))).toBe(true);
    // The temp files hold the complete new text, but the loader ignores them: the corpus is as before.
    expect(await readFile(path.join(folder, leftovers[0]!), 'utf8')).toBe(LIGHTHOUSE);
    const snapshot = await folderSnapshot();
    for (const leftover of leftovers) delete snapshot[leftover];
    expect(snapshot).toEqual(before);
    expect((await loadCorpus(folder)).version).toBe(corpus.version);
  });
});

import { createHash, type Hash } from 'node:crypto';
import { constants, readdirSync, readFileSync } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { corpusLimits } from './corpus-limits.ts';
import { listCorpus } from './load-corpus.ts';

/**
 * What a parsed corpus depends on besides its files: the loader's own code (this folder, and the text
 * splitting and page extraction it uses) and the locked versions of the libraries it calls. A parsed
 * corpus kept from an older loader must not be taken for what this one would read.
 */
const LOADER_CODE = ['corpus', 'text', 'extract'];
let loaderFingerprint: string | undefined;

function fingerprintOfLoader(): string {
  if (loaderFingerprint !== undefined) return loaderFingerprint;
  const src = new URL('../', import.meta.url);
  const hash = createHash('sha256');
  const addFolder = (folder: URL) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (entry.isDirectory()) addFolder(new URL(`${entry.name}/`, folder));
      else if (entry.name.endsWith('.ts'))
        hash.update(`${entry.name}\u0000`).update(readFileSync(new URL(entry.name, folder)));
    }
  };
  for (const folder of LOADER_CODE) addFolder(new URL(`${folder}/`, src));
  try {
    hash.update(readFileSync(new URL('../package-lock.json', src)));
  } catch {
    hash.update('no lock file');
  }
  loaderFingerprint = hash.digest('hex');
  return loaderFingerprint;
}

const READ_CHUNK_BYTES = 1 << 20;

/**
 * A digest of everything `loadCorpus(corpusPath)` reads: the path as given (it names each article's
 * source), every file's name and bytes in reading order, the names it skips, and the loader itself.
 * Equal digests mean the loader would return the same corpus, so a corpus parsed once can be kept under
 * it (the index cache does) and restored without reading the files again.
 */
export class CorpusDigest {
  readonly #hash: Hash;

  constructor(corpusPath: string) {
    this.#hash = createHash('sha256').update(`${fingerprintOfLoader()}\u0000${corpusPath}\u0000`);
  }

  /** A file read, in the loader's order (`LoadOptions.onFile`). */
  add(name: string, bytes: Uint8Array): void {
    this.#hash.update(`${name}\u0000${bytes.byteLength}\u0000`).update(bytes);
  }

  /**
   * `add` for a file of `size` bytes open as `handle`, read in pieces into one reused buffer: a large
   * corpus file is never whole in memory, which costs a cached start more (fresh pages, collection)
   * than hashing it. False if the file's length is not `size` (it changed meanwhile).
   */
  async addFile(name: string, handle: FileHandle, size: number): Promise<boolean> {
    this.#hash.update(`${name}\u0000${size}\u0000`);
    const buffer = Buffer.allocUnsafe(Math.min(size, READ_CHUNK_BYTES) || 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, null);
      if (bytesRead === 0) return read === size;
      this.#hash.update(buffer.subarray(0, bytesRead));
      read += bytesRead;
    }
  }

  /** The digest, once every file is added; `skipped` as the corpus lists it. */
  finish(skipped: readonly string[]): string {
    return this.#hash
      .update(`\u0001${JSON.stringify(skipped)}`)
      .digest('hex')
      .slice(0, 32);
  }
}

/**
 * The digest of the corpus at `corpusPath` as it is on disk now, by reading its files the way the loader
 * would; undefined for anything the loader would refuse or treat specially (a missing path, a link, a
 * pipe, an unreadable file): such a corpus is read by the loader itself, which says what is wrong.
 */
export async function digestCorpusOnDisk(corpusPath: string): Promise<string | undefined> {
  try {
    const { folder, sources, skipped } = await listCorpus(corpusPath);
    const digest = new CorpusDigest(corpusPath);
    const { maxFileBytes } = corpusLimits();
    for (const source of sources) {
      if (folder && (await lstat(source.path)).isSymbolicLink()) return undefined;
      const handle = await open(source.path, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const info = await handle.stat();
        // A file over the size cap is refused by the loader unread; hashing it first cost 6 s for 1.9 GB.
        if (!info.isFile() || info.size > maxFileBytes) return undefined;
        if (!(await digest.addFile(source.name, handle, info.size))) return undefined;
      } finally {
        await handle.close();
      }
    }
    return digest.finish(skipped);
  } catch {
    return undefined;
  }
}

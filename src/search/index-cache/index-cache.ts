import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Corpus } from '../../corpus/article.ts';
import { passageCount, type SharedCorpus } from '../../corpus/shared-corpus.ts';
import { yieldToEventLoop } from '../../event-loop.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { Engine } from '../engine.ts';
import { encodePostings, fitPostings, readPostings, type StoredPostings } from '../postings/posting-codec.ts';
import { parseTrailer } from './cache-trailer.ts';
import {
  decodeCorpusSnapshot,
  encodeCorpusSnapshot,
  type RestoredCorpus,
  type SnapshotText,
  snapshotIndexLength,
} from './corpus-snapshot.ts';
import { readSharedCorpusFile, type SharedCorpusRead, sharedCorpusFile } from './shared-corpus-file.ts';

/** Layout of the cache file itself; bump when the envelope below or the postings' layout changes. */
const CACHE_FORMAT = 5;

const FILE_PREFIX = 'index-';
const FILE_SUFFIX = '.idx';
/** Cache files of earlier versions (JSON), still counted and evicted like the others. */
const OLD_FILE_SUFFIX = '.json';
/** A bot's parsed corpus, laid out to share (`shared-corpus-file.ts`), named by its files' digest. */
const CORPUS_PREFIX = 'corpus-';
const CORPUS_SUFFIX = '.shared';

/**
 * A cache file is the engine's postings (`posting-codec.ts`, binary), a newline, then this trailer on
 * the last line: what the index was built from and a checksum of the bytes before it, so that a file
 * rewritten or damaged on disk is found out before it serves (the trailer can only be written once the
 * body's hash is known).
 */
const CACHE_TRAILER = z.object({
  format: z.number(),
  key: z.string(),
  corpusVersion: z.string(),
  settingsFingerprint: z.string(),
  savedAt: z.string(),
  /**
   * sha256 of the corpus version, a NUL, and the body: the engine's postings, then the corpus snapshot
   * without its text, which holds a hash of each block of the text instead (`corpus-snapshot.ts`), so
   * that `restore` reads and checks only the blocks a question reaches.
   */
  checksum: z.string(),
  /**
   * The `CorpusDigest` of the files the corpus was read from, when the body ends with the parsed corpus
   * (`corpus-snapshot.ts`, `corpusBytes` long): a start whose files have this digest restores the corpus
   * from here instead of reading and parsing them (`restore`).
   */
  files: z.string().optional(),
  corpusBytes: z.number().optional(),
  /**
   * The corpus's files as they were on disk when it was read (see `corpusOnDisk`), so that a start can
   * find its file before it knows the corpus version. Absent from files of older builds.
   */
  source: z.string().optional(),
});
type CacheTrailer = z.infer<typeof CACHE_TRAILER>;

/**
 * An index takes about one byte per character of corpus text (1.1 on the bundled corpus, 0.9 on NewsQA,
 * Reuters and BBC together); a cache file much larger than that is not this corpus's index, and is
 * refused before it is read.
 */
const BYTES_PER_CORPUS_CHAR = 8;
const SMALL_CORPUS_ALLOWANCE = 1 << 20;

/** The largest cache file worth reading for a corpus of `chars` characters (or bytes on disk). */
export function cacheSizeBound(chars: number): number {
  return chars * BYTES_PER_CORPUS_CHAR + SMALL_CORPUS_ALLOWANCE;
}

/** Temporary files of interrupted cache writes not touched for this long are removed at start. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/** Why the cache was or was not used, for the start-up log line. */
export type CacheOutcome =
  | { status: 'hit'; file: string }
  | { status: 'miss'; reason: 'disabled' | 'absent' }
  | { status: 'corrupt'; file: string; reason: string };

/**
 * A cache lookup: its outcome, and on a hit the restored engine and, when the file holds the parsed
 * corpus too, the digest of the files it was parsed from.
 */
export type CacheLookup =
  | { status: 'hit'; engine: Engine; file: string; files?: string }
  | Exclude<CacheOutcome, { status: 'hit' }>;

/** Options of {@link IndexCache}. */
export interface IndexCacheOptions {
  /** INDEX_CACHE_DIR. An empty string disables the cache (every start rebuilds). */
  dir: string;
  /**
   * What else shapes the index besides the corpus: analysis and ranking settings.
   * @default Engine.settingsFingerprint
   */
  settingsFingerprint?: string;
  /**
   * INDEX_CACHE_MAX_MB in bytes: after a save, the least recently used files of the folder are deleted
   * until the folder holds no more than this (the file just saved is always kept).
   * @default 2 GiB
   */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 2048 * 1024 * 1024;

/**
 * The built index persisted on disk for fast starts. Its file name carries a hash of the corpus
 * version and the analysis settings, so a lookup is a file-exists check; a stale, unreadable or corrupt
 * file is reported and ignored, never trusted. Writes are atomic.
 */
export class IndexCache {
  readonly dir: string;
  readonly settingsFingerprint: string;
  readonly maxBytes: number;
  #swept = false;

  constructor(options: IndexCacheOptions) {
    this.dir = options.dir;
    this.settingsFingerprint = options.settingsFingerprint ?? Engine.settingsFingerprint;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  get enabled(): boolean {
    return this.dir !== '';
  }

  /** The cache key for a corpus: changes when the corpus or the analysis settings change. */
  keyFor(corpusVersion: string): string {
    return createHash('sha256')
      .update(`${CACHE_FORMAT}\u0000${this.settingsFingerprint}\u0000${corpusVersion}`)
      .digest('hex')
      .slice(0, 24);
  }

  /** Path of the cache file for a corpus. */
  fileFor(corpusVersion: string): string {
    return path.join(this.dir, `${FILE_PREFIX}${this.keyFor(corpusVersion)}${FILE_SUFFIX}`);
  }

  /**
   * Reads the cache file of the corpus files `onDisk` describes before the corpus is read and its
   * version known, so that a start can do both at once: the most recently used file saved from files
   * of the same names, sizes and times (a restart on an unchanged corpus). A file of another corpus is
   * never read. Its checksum and postings are checked here too, for the version its trailer names:
   * all that needs no corpus, done while the corpus is read. `load` then uses it if it is indeed the
   * corpus's file, else reads the right one.
   */
  async prefetch(onDisk: CorpusOnDisk): Promise<PrefetchedCache | undefined> {
    if (!this.enabled) return undefined;
    await this.removeStaleTemporaryFiles();
    for (const { file } of await this.#files(isIndexFile)) {
      if ((await readTrailer(file))?.source !== onDisk.source) continue;
      const read = await readEnvelope(file, cacheSizeBound(onDisk.bytes));
      return {
        file,
        read,
        ...(read.status === 'read'
          ? { checked: checkBody(read.trailer, read.body, read.trailer.corpusVersion) }
          : {}),
      };
    }
    return undefined;
  }

  /**
   * Removes the temporary files of cache writes that a crash (`kill -9`) interrupted. Only old ones:
   * another process (a shard) sharing the folder may be writing a young one right now.
   */
  async removeStaleTemporaryFiles(now = Date.now()): Promise<void> {
    if (!this.enabled || this.#swept) return;
    this.#swept = true;
    const names = await readdir(this.dir).catch(() => []);
    await Promise.all(
      names
        .filter(
          (name) =>
            (name.startsWith(`.${FILE_PREFIX}`) || name.startsWith(`.${CORPUS_PREFIX}`)) &&
            name.endsWith('.tmp'),
        )
        .map(async (name) => {
          const file = path.join(this.dir, name);
          const info = await stat(file).catch(() => undefined);
          if (info?.isFile() && now - info.mtimeMs > STALE_TEMPORARY_MS)
            await unlink(file).catch(() => undefined);
        }),
    );
  }

  /** Restores the engine for `corpus` if a matching, intact cache file exists. */
  async load(corpus: Corpus, prefetched?: PrefetchedCache): Promise<CacheLookup> {
    if (!this.enabled) return { status: 'miss', reason: 'disabled' };
    await this.removeStaleTemporaryFiles();
    const file = this.fileFor(corpus.version);
    // A file read ahead was bounded by the size of the corpus's files, which its text never exceeds.
    const ahead = prefetched?.file === file ? prefetched : undefined;
    const read = ahead?.read ?? (await readEnvelope(file, cacheSizeBound(corpusChars(corpus))));
    if (read.status !== 'read') return read;
    const corrupt = (reason: string): CacheLookup => ({ status: 'corrupt', file, reason });
    const { trailer, body } = read;
    if (trailer.format !== CACHE_FORMAT || trailer.key !== this.keyFor(corpus.version)) {
      return corrupt('envelope does not match its file name');
    }
    if (trailer.corpusVersion !== corpus.version) return corrupt('built for another corpus version');
    const checked = ahead?.checked ?? checkBody(trailer, body, corpus.version);
    if (typeof checked === 'string') return corrupt(checked);
    try {
      const engine = await restoreEngine(corpus, checked.postings, file);
      return {
        status: 'hit',
        engine,
        file,
        ...(checked.corpus && trailer.files ? { files: trailer.files } : {}),
      };
    } catch (error) {
      return corrupt(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Restores a corpus and its engine without reading the corpus files, from the cache file saved with
   * the parsed corpus of files whose `CorpusDigest` is `files` (the digest of what is on disk now: a
   * file changed by one byte, renamed, added or removed, or a change to the loader, gives another digest
   * and so a miss). `corpusBytes`: the size of those files, bounding the cache file read.
   */
  async restore(files: string, corpusBytes: number): Promise<CacheLookup> {
    if (!this.enabled) return { status: 'miss', reason: 'disabled' };
    await this.removeStaleTemporaryFiles();
    for (const { file } of await this.#files(isIndexFile)) {
      if ((await readTrailer(file))?.files !== files) continue;
      const read = await readWithoutCorpusText(file, cacheSizeBound(corpusBytes));
      if (read.status !== 'read') return read;
      const corrupt = (reason: string): CacheLookup => ({ status: 'corrupt', file, reason });
      const { trailer, checked, postingsBytes, text } = read;
      const version = trailer.corpusVersion;
      if (trailer.format !== CACHE_FORMAT || trailer.key !== this.keyFor(version)) {
        return corrupt('envelope does not match its file name');
      }
      if (trailer.checksum !== checksumOf(version, checked)) {
        return corrupt('checksum does not match the content');
      }
      try {
        const postings = readPostings(checked.subarray(0, postingsBytes));
        const restored = decodeCorpusSnapshot(checked.subarray(postingsBytes), text);
        if (restored.corpus.version !== version) return corrupt('corpus snapshot of another corpus version');
        const engine = await restoreEngine(restored.corpus, postings, file, restored);
        return { status: 'hit', engine, file };
      } catch (error) {
        return corrupt(error instanceof Error ? error.message : String(error));
      }
    }
    return { status: 'miss', reason: 'absent' };
  }

  /**
   * Persists `engine` atomically, one file per corpus version and settings, then deletes the least
   * recently used other files while the folder is over `maxBytes`. Writes in chunks, yielding to the
   * event loop between them, so it can run in the background after a reload. `source`: the corpus
   * files' `source` as `corpusOnDisk` gave it before they were read, for `prefetch`. `files`: the
   * `CorpusDigest` of the bytes the corpus was parsed from, when known; the parsed corpus is then saved
   * too, for `restore`.
   */
  async save(engine: Engine, source?: string, files?: string): Promise<string> {
    if (!this.enabled) return '';
    await mkdir(this.dir, { recursive: true });
    const file = this.fileFor(engine.version);
    await writeFileAtomic(file, async (write) => {
      const hash = checksumHash(engine.version);
      for (const chunk of encodePostings(engine.postings)) {
        hash.update(chunk);
        await write(chunk);
        await yieldToEventLoop();
      }
      let corpusBytes = 0;
      const snapshot = files === undefined ? undefined : encodeCorpusSnapshot(engine.corpus);
      if (snapshot !== undefined) {
        for (const [checked, chunks] of [
          [true, snapshot.index],
          [false, snapshot.text],
        ] as const) {
          for (const chunk of chunks) {
            if (checked) hash.update(chunk);
            await write(chunk);
            corpusBytes += chunk.byteLength;
            await yieldToEventLoop();
          }
        }
      }
      const trailer: CacheTrailer = {
        format: CACHE_FORMAT,
        key: this.keyFor(engine.version),
        corpusVersion: engine.version,
        settingsFingerprint: this.settingsFingerprint,
        savedAt: new Date().toISOString(),
        checksum: hash.digest('hex'),
        ...(source === undefined ? {} : { source }),
        ...(snapshot === undefined ? {} : { files, corpusBytes }),
      };
      await write(`\n${JSON.stringify(trailer)}`);
    });
    await this.#evict(file);
    return file;
  }

  /** Path of the shared corpus file for corpus files of `CorpusDigest` `files`. */
  corpusFileFor(files: string): string {
    return path.join(this.dir, `${CORPUS_PREFIX}${files}${CORPUS_SUFFIX}`);
  }

  /** Whether the folder holds any shared corpus file (else there is no need to digest the corpus files). */
  async holdsCorpora(): Promise<boolean> {
    return this.enabled && (await this.#files(isCorpusFile)).length > 0;
  }

  /**
   * The shared corpus saved from corpus files of `CorpusDigest` `files` (the digest of what is on disk
   * now), read into new shared memory and checked; `corpusBytes`: the size of those files, bounding
   * what is read. A miss when none was saved; "corrupt" (with why) when the file cannot be trusted.
   */
  async restoreCorpus(files: string, corpusBytes: number): Promise<SharedCorpusRead> {
    if (!this.enabled) return { status: 'miss' };
    await this.removeStaleTemporaryFiles();
    const file = this.corpusFileFor(files);
    const read = await readSharedCorpusFile(file, files, cacheSizeBound(corpusBytes));
    if (read.status === 'read') await markUsed(file);
    return read;
  }

  /**
   * Saves a shared corpus read from corpus files of `CorpusDigest` `files`, atomically, for
   * `restoreCorpus`; then evicts as `save` does.
   */
  async saveCorpus(shared: SharedCorpus, files: string): Promise<string> {
    if (!this.enabled) return '';
    await mkdir(this.dir, { recursive: true });
    const file = this.corpusFileFor(files);
    await writeFileAtomic(file, sharedCorpusFile(shared, files));
    await this.#evict(file);
    return file;
  }

  /** Deletes the least recently used cache files, never `keep`, until the folder fits `maxBytes`. */
  async #evict(keep: string): Promise<void> {
    const files = await this.#files(isCacheFile);
    let total = files.reduce((sum, entry) => sum + entry.size, 0);
    for (const entry of files.reverse()) {
      if (total <= this.maxBytes) break;
      if (entry.file === keep) continue;
      await unlink(entry.file).catch(() => undefined);
      total -= entry.size;
    }
  }

  /** The cache files in the folder whose names pass `kind`, most recently used first. */
  async #files(kind: (name: string) => boolean): Promise<{ file: string; size: number; usedAt: number }[]> {
    const names = (await readdir(this.dir).catch(() => [])).filter(kind);
    const files = await Promise.all(
      names.map(async (name) => {
        const file = path.join(this.dir, name);
        const info = await stat(file).catch(() => undefined);
        return info ? [{ file, size: info.size, usedAt: info.mtimeMs }] : [];
      }),
    );
    return files.flat().sort((a, b) => b.usedAt - a.usedAt);
  }
}

/** The index cache the configuration asks for (INDEX_CACHE_DIR, INDEX_CACHE_MAX_MB). */
export function indexCacheOf(config: { INDEX_CACHE_DIR: string; INDEX_CACHE_MAX_MB: number }): IndexCache {
  return new IndexCache({ dir: config.INDEX_CACHE_DIR, maxBytes: config.INDEX_CACHE_MAX_MB * 1024 * 1024 });
}

/** A cache file read by `IndexCache.prefetch`, for `load`. */
export interface PrefetchedCache {
  file: string;
  read: EnvelopeRead;
  /** Its body checked for the corpus version its trailer names (`checkBody`). */
  checked?: CheckedBody;
}

type EnvelopeRead =
  | { status: 'read'; trailer: CacheTrailer; body: Buffer }
  | { status: 'miss'; reason: 'absent' }
  | { status: 'corrupt'; file: string; reason: string };

function isIndexFile(name: string): boolean {
  return name.startsWith(FILE_PREFIX) && (name.endsWith(FILE_SUFFIX) || name.endsWith(OLD_FILE_SUFFIX));
}

function isCorpusFile(name: string): boolean {
  return name.startsWith(CORPUS_PREFIX) && name.endsWith(CORPUS_SUFFIX);
}

/** Any file of the cache folder: counted and evicted together. */
function isCacheFile(name: string): boolean {
  return isIndexFile(name) || isCorpusFile(name);
}

/**
 * Reads a cache file into its engine JSON and trailer. Whatever the file holds (any bytes, any JSON, a
 * FIFO, something huge) the answer is a read or "corrupt", never an exception.
 */
async function readEnvelope(file: string, maxBytes: number): Promise<EnvelopeRead> {
  const corrupt = (reason: string): EnvelopeRead => ({ status: 'corrupt', file, reason });
  let bytes: Buffer;
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return corrupt('not a regular file');
      if (info.size > maxBytes) return corrupt(`${info.size} bytes, more than this corpus's index can take`);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'miss', reason: 'absent' };
    return corrupt(`unreadable: ${String(error)}`);
  }
  const parsed = parseTrailer(bytes, CACHE_TRAILER);
  if (parsed.status === 'corrupt') return corrupt(parsed.reason);
  return { status: 'read', trailer: parsed.trailer, body: bytes.subarray(0, parsed.newline) };
}

/** Closes the descriptor a restored corpus's text is read through once the corpus is gone. */
const closeWhenCollected = new FinalizationRegistry<number>((fd) => closeSync(fd));

/** Bytes read from the end of a cache file to find its trailer (a few hundred bytes long). */
const TRAILER_READ_BYTES = 4096;

/** The trailer of a cache file, from its last bytes alone; undefined when there is none to read. */
async function readTrailer(file: string): Promise<CacheTrailer | undefined> {
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return undefined;
      const length = Math.min(info.size, TRAILER_READ_BYTES);
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, info.size - length);
      const parsed = parseTrailer(buffer.subarray(0, bytesRead), CACHE_TRAILER);
      return parsed.status === 'read' ? parsed.trailer : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * A cache file's body split into the postings and, when saved with it, the corpus snapshot after them;
 * `checkedBytes`: how much of the body the checksum covers (all but the snapshot's text).
 */
function bodyParts(
  trailer: CacheTrailer,
  body: Buffer,
): { postings: Buffer; corpus?: Buffer; checkedBytes: number } | undefined {
  const corpusBytes = trailer.corpusBytes ?? 0;
  if (!Number.isSafeInteger(corpusBytes) || corpusBytes < 0 || corpusBytes > body.length) return undefined;
  if (corpusBytes === 0) return { postings: body, checkedBytes: body.length };
  const at = body.length - corpusBytes;
  const corpus = body.subarray(at);
  const indexBytes = snapshotIndexLength(corpus);
  if (indexBytes === undefined || indexBytes > corpusBytes) return undefined;
  return { postings: body.subarray(0, at), corpus, checkedBytes: at + indexBytes };
}

/** A cache file's body checked on its own: its postings read, and the corpus snapshot after them if any. */
interface CheckedParts {
  postings: StoredPostings;
  corpus?: Buffer;
}

/** {@link CheckedParts}, or why the body is corrupt. */
type CheckedBody = CheckedParts | string;

/**
 * Checks a cache file's body against its trailer for `corpusVersion`: the snapshot's length in bounds,
 * the checksum, and the postings readable and consistent (`readPostings`). What is left to check needs
 * the corpus: that its passages are those the postings count (`restoreEngine`).
 */
function checkBody(trailer: CacheTrailer, body: Buffer, corpusVersion: string): CheckedBody {
  const parts = bodyParts(trailer, body);
  if (parts === undefined) return 'corpus snapshot length out of bounds';
  if (trailer.checksum !== checksumOf(corpusVersion, body.subarray(0, parts.checkedBytes))) {
    return 'checksum does not match the content';
  }
  try {
    return { postings: readPostings(parts.postings), ...(parts.corpus ? { corpus: parts.corpus } : {}) };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * For `restore`: a cache file's postings and corpus snapshot without its text, which stays on disk and
 * is read block by block as the corpus's passages are first read (`corpus-snapshot.ts` checks each
 * block's hash). Whatever the file holds, the answer is a read or "corrupt", never an exception.
 */
async function readWithoutCorpusText(
  file: string,
  maxBytes: number,
): Promise<
  | {
      status: 'read';
      trailer: CacheTrailer;
      checked: Buffer;
      postingsBytes: number;
      text: SnapshotText;
    }
  | Exclude<EnvelopeRead, { status: 'read' }>
> {
  const corrupt = (reason: string) => ({ status: 'corrupt' as const, file, reason });
  let fd: number | undefined;
  try {
    // Synchronous reads, as the text is read later (`article.passages` is a property, not a promise).
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile()) return corrupt('not a regular file');
    if (info.size > maxBytes) return corrupt(`${info.size} bytes, more than this corpus's index can take`);
    const { size } = info;
    const descriptor = fd;
    const readAt = (position: number, length: number): Buffer => {
      const bytes = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(descriptor, bytes, done, length - done, position + done);
        if (n === 0) break;
        done += n;
      }
      return bytes.subarray(0, done);
    };
    const tail = readAt(Math.max(0, size - TRAILER_READ_BYTES), Math.min(size, TRAILER_READ_BYTES));
    const parsed = parseTrailer(tail, CACHE_TRAILER);
    if (parsed.status === 'corrupt') return corrupt(parsed.reason);
    const { newline, trailer } = parsed;
    const bodyBytes = size - tail.length + newline;
    const corpusBytes = trailer.corpusBytes;
    if (!Number.isSafeInteger(corpusBytes) || corpusBytes! < 8 || corpusBytes! > bodyBytes) {
      return corrupt('corpus snapshot length out of bounds');
    }
    const postingsBytes = bodyBytes - corpusBytes!;
    const indexBytes = snapshotIndexLength(readAt(postingsBytes, 8));
    if (indexBytes === undefined || indexBytes > corpusBytes!) {
      return corrupt('corpus snapshot length out of bounds');
    }
    const checked = readAt(0, postingsBytes + indexBytes);
    if (checked.length !== postingsBytes + indexBytes) return corrupt('truncated while read');
    const textAt = postingsBytes + indexBytes;
    const text: SnapshotText = {
      byteLength: corpusBytes! - indexBytes,
      read: (at, length) => readAt(textAt + at, length),
    };
    // The descriptor lives as long as the text can be read, and no longer.
    closeWhenCollected.register(text, fd);
    fd = undefined;
    return { status: 'read', trailer, checked, postingsBytes, text };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'miss', reason: 'absent' };
    return corrupt(`unreadable: ${String(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The engine over `corpus` from its checked postings; marks the file used, for eviction. `restored`:
 * the corpus came from a snapshot, whose passage counts and ids are known without reading its passages.
 */
async function restoreEngine(
  corpus: Corpus,
  postings: StoredPostings,
  file: string,
  restored?: RestoredCorpus,
): Promise<Engine> {
  const engine = Engine.fromPostings(
    corpus,
    fitPostings(postings, restored?.passageCounts ?? corpus.articles.map(passageCount)),
    {},
    restored,
  );
  await markUsed(file);
  return engine;
}

/** Marks a cache file used now: eviction takes the least recently used files first. */
async function markUsed(file: string): Promise<void> {
  const now = new Date();
  await utimes(file, now, now).catch(() => undefined);
}

function checksumHash(corpusVersion: string): Hash {
  return createHash('sha256').update(`${corpusVersion}\u0000`);
}

function checksumOf(corpusVersion: string, body: Uint8Array): string {
  return checksumHash(corpusVersion).update(body).digest('hex');
}

/** Characters of text in a corpus, the measure its index's size is bounded by. */
function corpusChars(corpus: Corpus): number {
  let chars = 0;
  for (const article of corpus.articles) {
    chars += article.id.length + article.title.length;
    for (const passage of article.passages) chars += passage.text.length + passage.id.length;
  }
  return chars;
}

/** A corpus's files as found on disk, before they are read. */
export interface CorpusOnDisk {
  /** Bytes of its files, to bound a cache file read ahead: its text is never more characters. */
  bytes: number;
  /** A hash of where the corpus is and its files' names, sizes and modification times. */
  source: string;
}

/** Describes the corpus at `corpusPath` (a folder's files, or one file) by `stat` alone. */
export async function corpusOnDisk(corpusPath: string): Promise<CorpusOnDisk> {
  const hash = createHash('sha256').update(path.resolve(corpusPath));
  const info = await stat(corpusPath).catch(() => undefined);
  const names = info?.isDirectory() ? (await readdir(corpusPath).catch(() => [])).sort() : [''];
  const entries = await Promise.all(
    names.map((name) => stat(path.join(corpusPath, name)).catch(() => undefined)),
  );
  let bytes = 0;
  for (const [i, entry] of entries.entries()) {
    if (!entry?.isFile()) continue;
    bytes += entry.size;
    hash.update(`\u0000${names[i]}\u0000${entry.size}\u0000${entry.mtimeMs}`);
  }
  return { bytes, source: hash.digest('hex').slice(0, 24) };
}

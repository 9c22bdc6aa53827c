import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Corpus } from '../../corpus/article.ts';
import { writeFileAtomic } from '../../corpus-editing/atomic-write.ts';
import { Engine, type SerializedEngine } from '../engine.ts';
import { writeJsonYielding } from './json-chunks.ts';

/** Layout of the cache file itself; bump when the envelope below changes. */
const CACHE_FORMAT = 1;

const FILE_PREFIX = 'index-';

/** What is stored: the engine's index state, and what it was built from. */
interface CacheEnvelope {
  format: number;
  key: string;
  corpusVersion: string;
  settingsFingerprint: string;
  savedAt: string;
  engine: SerializedEngine;
}

/** Why the cache was or was not used, for the start-up log line. */
export type CacheOutcome =
  | { status: 'hit'; file: string }
  | { status: 'miss'; reason: 'disabled' | 'absent' }
  | { status: 'corrupt'; file: string; reason: string };

/** A cache lookup: its outcome, and on a hit the restored engine. */
export type CacheLookup =
  | { status: 'hit'; engine: Engine; file: string }
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
}

/**
 * The built index persisted on disk for fast starts. Its file name carries a hash of the corpus
 * version and the analysis settings, so a lookup is a file-exists check; a stale, unreadable or corrupt
 * file is reported and ignored, never trusted. Writes are atomic.
 */
export class IndexCache {
  readonly dir: string;
  readonly settingsFingerprint: string;

  constructor(options: IndexCacheOptions) {
    this.dir = options.dir;
    this.settingsFingerprint = options.settingsFingerprint ?? Engine.settingsFingerprint;
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
    return path.join(this.dir, `${FILE_PREFIX}${this.keyFor(corpusVersion)}.json`);
  }

  /**
   * Reads and parses the cache file before the corpus version is known, so that a start can do both at
   * once; `load` then uses it if it is the corpus's file. There is normally one file (`save` deletes
   * the others); with none or several, nothing is read.
   */
  async prefetch(): Promise<PrefetchedCache | undefined> {
    if (!this.enabled) return undefined;
    const names = await readdir(this.dir).catch(() => []);
    const files = names.filter(isCacheFile);
    if (files.length !== 1) return undefined;
    const file = path.join(this.dir, files[0]!);
    return { file, read: await readEnvelope(file) };
  }

  /** Restores the engine for `corpus` if a matching, intact cache file exists. */
  async load(corpus: Corpus, prefetched?: PrefetchedCache): Promise<CacheLookup> {
    if (!this.enabled) return { status: 'miss', reason: 'disabled' };
    const file = this.fileFor(corpus.version);
    const read = prefetched?.file === file ? prefetched.read : await readEnvelope(file);
    if (read.status !== 'read') return read;
    const { envelope } = read;
    if (
      envelope.format !== CACHE_FORMAT ||
      envelope.key !== this.keyFor(corpus.version) ||
      !envelope.engine
    ) {
      return { status: 'corrupt', file, reason: 'envelope does not match its file name' };
    }
    try {
      return { status: 'hit', engine: Engine.fromJSON(corpus, envelope.engine), file };
    } catch (error) {
      return { status: 'corrupt', file, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Persists `engine` atomically and deletes cache files of other corpus versions. Serializes while
   * yielding to the event loop, so it can run in the background after a reload.
   */
  async save(engine: Engine): Promise<string> {
    if (!this.enabled) return '';
    await mkdir(this.dir, { recursive: true });
    const file = this.fileFor(engine.version);
    const envelope: CacheEnvelope = {
      format: CACHE_FORMAT,
      key: this.keyFor(engine.version),
      corpusVersion: engine.version,
      settingsFingerprint: this.settingsFingerprint,
      savedAt: new Date().toISOString(),
      engine: engine.toJSON(),
    };
    await writeFileAtomic(file, (write) => writeJsonYielding(envelope, write));
    const stale = (await readdir(this.dir)).filter(
      (name) => isCacheFile(name) && name !== path.basename(file),
    );
    await Promise.all(stale.map((name) => unlink(path.join(this.dir, name)).catch(() => undefined)));
    return file;
  }
}

/** A cache file read by `IndexCache.prefetch`, for `load`. */
export interface PrefetchedCache {
  file: string;
  read: EnvelopeRead;
}

type EnvelopeRead =
  | { status: 'read'; envelope: Partial<CacheEnvelope> }
  | { status: 'miss'; reason: 'absent' }
  | { status: 'corrupt'; file: string; reason: string };

function isCacheFile(name: string): boolean {
  return name.startsWith(FILE_PREFIX) && name.endsWith('.json');
}

async function readEnvelope(file: string): Promise<EnvelopeRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'miss', reason: 'absent' };
    return { status: 'corrupt', file, reason: `unreadable: ${String(error)}` };
  }
  try {
    return { status: 'read', envelope: JSON.parse(text) as Partial<CacheEnvelope> };
  } catch (error) {
    return { status: 'corrupt', file, reason: error instanceof Error ? error.message : String(error) };
  }
}

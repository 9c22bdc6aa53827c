import type { MessagePort } from 'node:worker_threads';
import type { CorpusLimits } from '../../corpus/corpus-limits.ts';
import type { CorpusProblem } from '../../corpus/problems.ts';
import type { SharedCorpus } from '../../corpus/shared-corpus.ts';
import type { Answer, AnswerOptions, Timeline } from '../answer.ts';
import type { CacheOutcome } from '../index-cache/index-cache.ts';
import type { Period } from '../period.ts';
import type { ThreadMemory } from './thread-memory.ts';

/** What the index worker is started with. */
export interface IndexWorkerData {
  /**
   * `message`: the main thread reads the corpus and posts it (`CorpusMessage`), and the worker reads
   * the cache file meanwhile, then indexes it. `path`: the worker only reads the corpus at `corpusPath`
   * and posts it, shared, to the main thread (`corpus`, or `refused` with its problems), then ends: the
   * garbage of parsing goes with its heap instead of staying in the heap of a worker that indexes.
   */
  corpusFrom: 'message' | 'path';
  corpusPath: string;
  /** The process's corpus limits (CORPUS_MAX_FILE_MB, EXTRACT_*), which this thread's reading applies. */
  corpusLimits: CorpusLimits;
  /** INDEX_CACHE_DIR ('' for none): restore from it when it matches, else build and save to it. */
  cacheDir: string;
  settingsFingerprint: string;
  /** The cache folder's size cap in bytes (`IndexCache.maxBytes`). */
  cacheMaxBytes: number;
  /** Whether this worker saves the index it builds (one worker of a pool does). */
  persist: boolean;
  /**
   * Builds (or restores) the index, persists it, posts its postings in the `ready` status and ends, to
   * workers that serve from them: the heap of a build (its garbage and its lazily grown space) ends with
   * it instead of staying in a worker that serves, and it never loads the language model.
   */
  handOff?: boolean;
  /** Postings a building worker handed over (see `handOff`): this worker serves from them, read in place. */
  postings?: SharedArrayBuffer;
  /** Questions arrive on this port; each reply is posted on it before `replies` is bumped. */
  port: MessagePort;
  /** One Int32: how many replies have been posted, for the main thread to wait on. */
  replies: SharedArrayBuffer;
}

/** What the worker posts on `parentPort`: progress while it builds, then whether it serves. */
export type IndexWorkerStatus =
  | {
      kind: 'ready';
      version: string;
      from: 'cache' | 'built';
      cache: CacheOutcome;
      /**
       * Milliseconds from the worker's start to its index (reading or receiving the corpus, restoring or
       * building), and spent persisting it (0 when not saved).
       */
      indexMs: number;
      saveMs: number;
      savedTo?: string;
      saveError?: string;
      /** With `handOff`: the index's postings (`encodePostings`), for the workers that serve it. */
      postings?: SharedArrayBuffer;
    }
  | { kind: 'failed'; message: string }
  /** The corpus this worker read (`corpusFrom: 'path'`), shared; it ends. */
  | { kind: 'corpus'; corpus: SharedCorpus }
  /** The corpus this worker read is invalid; it stops. */
  | { kind: 'refused'; problems: readonly CorpusProblem[] }
  /** Articles indexed so far, while building. */
  | { kind: 'progress'; done: number; total: number };

export type IndexRequest =
  | { id: number; method: 'answer'; question: string; options: AnswerOptions }
  | { id: number; method: 'closestHeadlines' | 'articlesMentioning'; question: string; limit: number }
  | { id: number; method: 'timeline'; topic: string; options: { period?: Period } }
  /** The worker's heap (after a full collection when the process runs with `--expose-gc`). */
  | { id: number; method: 'memory' };

export type IndexReply =
  | { id: number; ok: true; answer: Answer }
  | { id: number; ok: true; articleIds: string[] }
  | { id: number; ok: true; timeline: Timeline }
  | { id: number; ok: true; memory: ThreadMemory }
  | { id: number; ok: false; message: string };

/** The corpus, posted to a worker once the main thread has read it: its text is shared, not copied. */
export interface CorpusMessage {
  kind: 'corpus';
  corpus: SharedCorpus;
}

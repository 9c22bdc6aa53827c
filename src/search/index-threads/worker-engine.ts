import type { ResourceLimits } from 'node:worker_threads';
import type { Article, Corpus } from '../../corpus/article.ts';
import { readSharedCorpus, type SharedCorpus, shareCorpus } from '../../corpus/shared-corpus.ts';
import type { Answer, AnswerOptions, Timeline } from '../answer.ts';
import { CorpusLookup } from '../corpus-lookup.ts';
import type { CacheOutcome, IndexCache } from '../index-cache/index-cache.ts';
import type { Period } from '../period.ts';
import { SearchEngine } from '../search-engine.ts';
import { IndexThread, type ReadyStatus } from './index-thread.ts';
import type { IndexReply, IndexWorkerData } from './index-worker-protocol.ts';
import type { ThreadMemory } from './thread-memory.ts';

/**
 * How long an asynchronous search may wait for its worker before it fails: far beyond any search (they
 * take milliseconds, queued ones seconds at worst), short enough that a stuck worker is reported.
 */
const ASYNC_TIMEOUT_MS = 30_000;

/**
 * For a worker that reads or builds and then ends (a reload's): V8 grows a young generation of up to
 * 48 MB in a worker that allocates fast, and keeps it until the worker ends. Beside the old workers,
 * still serving, that space is most of what a reload adds; scavenging a smaller one more often costs a
 * build little, and no question waits on it (a serving worker keeps the default: its questions would).
 */
const SHORT_LIVED_WORKER: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

/** Options of {@link WorkerEngine.start}. */
export interface WorkerEngineOptions {
  /** Where the workers read the corpus from: the same path `corpus` was read from. */
  corpusPath: string;
  /**
   * The corpus as read and validated on this thread (or being read). Once read, its text is moved to
   * shared memory that the workers read too; the engine's `corpus` reads it there. Or the corpus
   * already shared (as `shareCorpus` returns it, e.g. restored from the cache folder).
   */
  corpus: Corpus | Promise<Corpus | SharedRead>;
  /** Restore the index from it when it matches, else build it and save it (from one worker). Omit for no cache. */
  cache?: IndexCache;
  /**
   * Worker threads, each with its own copy of the index: searches asked with `answerAsync` run on as
   * many at once. Each copy costs the memory of one index.
   * @default 1
   */
  workers?: number;
  /** Called now and then while the (first) worker builds the index. */
  onProgress?: (done: number, total: number) => void;
  /**
   * How long a synchronous search (`answer`) may hold this thread before
   * the call fails: a worker that died mid-call is only noticed then. Autocomplete has to answer within
   * Discord's 3 seconds anyway; a search takes milliseconds.
   * @default 2_000
   */
  callTimeoutMs?: number;
  /**
   * Limits of the worker that builds a reload's index (see `WorkerEngine.read`), beyond a small young
   * generation; a worker that exceeds them fails the reload, and the old index keeps serving. Tests
   * set a small heap to see that happen.
   */
  buildLimits?: ResourceLimits;
}

/** A corpus laid out in shared memory, and the same corpus read from there (`shareCorpus`). */
export interface SharedRead {
  shared: SharedCorpus;
  corpus: Corpus;
}

/** A corpus read by a new index worker (see {@link WorkerEngine.read}). */
export interface ReadByWorker {
  /** The corpus, validated, its text shared with the worker. */
  corpus: Corpus;
  /** Resolves once the worker (and any further ones) serve this corpus's index. */
  start(onProgress?: (done: number, total: number) => void): Promise<StartedWorkerEngine>;
  /** Lets the corpus go unindexed (it is the one serving already): `start` may no longer be called. */
  discard(): void;
}

/** A started worker engine, with how its index came to be. */
export interface StartedWorkerEngine {
  engine: WorkerEngine;
  from: 'cache' | 'built';
  lookup: CacheOutcome;
  /** Milliseconds the (first) worker spent restoring or building the index, and persisting it. */
  indexMs: number;
  saveMs: number;
  savedTo?: string;
  saveError?: string;
}

/**
 * A search engine whose index lives in worker threads. The corpus stays here (citations, context and
 * autocomplete need no index). What this buys is the heap: building an index, and dropping the old one
 * after a reload, happen in other threads' heaps, so this thread (gateway heartbeats, HTTP requests)
 * never waits on their garbage collection. `answerAsync` leaves this thread free while a worker
 * searches, and spreads searches over the workers; `answer` waits for the reply, as a search on this
 * thread would.
 */
export class WorkerEngine extends SearchEngine {
  readonly #threads: IndexThread[];
  readonly #timeoutMs: number;
  #closed: string | undefined;
  /** The engine that replaced this one: searches asked after retirement go there. */
  #successor: SearchEngine | undefined;

  private constructor(corpus: Corpus, lookup: CorpusLookup, threads: IndexThread[], timeoutMs: number) {
    super(corpus, lookup);
    this.#threads = threads;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Starts the workers on the corpus at `corpusPath`; resolves once they all serve, rejects if one
   * cannot. They start reading the cache file at once, alongside this thread's own reading of the
   * corpus when `corpus` is a promise.
   */
  static async start(options: WorkerEngineOptions): Promise<StartedWorkerEngine> {
    const count = Math.max(1, Math.trunc(options.workers ?? 1));
    const threads = Array.from({ length: count }, (_, i) =>
      indexThread(options, i, 'message', i === 0 ? options.onProgress : undefined),
    );
    try {
      // This thread's reading decides what is wrong with a corpus (a `CorpusError` lists every
      // problem); a worker's failure is only reported when this thread found nothing wrong.
      const read = await options.corpus;
      const { shared, corpus } = 'shared' in read ? read : await shareCorpus(read);
      for (const thread of threads) thread.sendCorpus(shared);
      return await WorkerEngine.#serving(threads, corpus, options);
    } catch (error) {
      for (const thread of threads) thread.close('the index workers did not start');
      throw error;
    }
  }

  /**
   * Has a new worker read and validate the corpus at `corpusPath` (rejecting with a `CorpusError` for
   * an invalid one), and resolves with it, shared: `start` has another worker build its index (see
   * `#build`), then starts the workers that serve it. Each step on a worker of its own that ends before
   * the next starts keeps the garbage of parsing and of building out of every heap that stays: the
   * serving thread's, and the new serving workers', which would otherwise hold that space beside the
   * old workers' until the end of the reload, and after it.
   */
  static async read(options: Omit<WorkerEngineOptions, 'corpus' | 'onProgress'>): Promise<ReadByWorker> {
    const reader = indexThread(options, 0, 'path', undefined, {}, SHORT_LIVED_WORKER);
    let corpus: Corpus;
    let shared: SharedCorpus;
    try {
      shared = await reader.corpus;
      corpus = await readSharedCorpus(shared);
    } finally {
      // Its heap given back before a worker that builds starts beside the old ones.
      await reader.end('the corpus was read');
    }
    let taken = false;
    return {
      corpus,
      start: async (onProgress) => {
        if (taken) throw new Error('WorkerEngine: this corpus was already started or discarded');
        taken = true;
        const built = await WorkerEngine.#build(shared, options, onProgress);
        const count = Math.max(1, Math.trunc(options.workers ?? 1));
        const threads = Array.from({ length: count }, (_, i) =>
          indexThread(options, i, 'message', undefined, { postings: built.postings }),
        );
        try {
          for (const thread of threads) thread.sendCorpus(shared);
          const started = await WorkerEngine.#serving(threads, corpus, options);
          const { from, cache, indexMs, saveMs, savedTo, saveError } = built;
          return { ...started, from, lookup: cache, indexMs, saveMs, savedTo, saveError };
        } catch (error) {
          for (const thread of threads) thread.close('the index workers did not start');
          throw error;
        }
      },
      discard: () => {
        taken = true;
      },
    };
  }

  /**
   * Builds the index of `shared` (or restores it from the cache) on a worker of its own, which persists
   * it, hands its postings over and ends: the workers that serve then read the postings in place,
   * with heaps as lean as after a start from the persisted index, and the build's heap is given back
   * before they start rather than kept beside the old workers until the reload ends.
   */
  static async #build(
    shared: SharedCorpus,
    options: Omit<WorkerEngineOptions, 'corpus' | 'onProgress'>,
    onProgress: ((done: number, total: number) => void) | undefined,
  ): Promise<ReadyStatus & { postings: SharedArrayBuffer }> {
    const builder = indexThread(
      options,
      0,
      'message',
      onProgress,
      { handOff: true },
      {
        ...SHORT_LIVED_WORKER,
        ...options.buildLimits,
      },
    );
    try {
      builder.sendCorpus(shared);
      const built = await builder.ready;
      if (built.version !== shared.version || !built.postings)
        throw new Error('the worker that built the index handed no postings over for this corpus');
      return { ...built, postings: built.postings };
    } finally {
      // Ended, not only told to end, before the workers that serve start: the two heaps never overlap.
      await builder.end('it handed its index over');
    }
  }

  /** Once every thread serves `corpus`: the engine over them, and how its index came to be. */
  static async #serving(
    threads: IndexThread[],
    corpus: Corpus,
    options: Pick<WorkerEngineOptions, 'callTimeoutMs'>,
  ): Promise<StartedWorkerEngine> {
    const [statuses, lookup] = await Promise.all([
      Promise.all(threads.map((thread) => thread.ready)),
      CorpusLookup.ofAsync(corpus),
    ]);
    for (const status of statuses) {
      if (status.version !== corpus.version) {
        throw new Error(
          `the corpus changed while it was being indexed (read ${corpus.version}, indexed ${status.version}); reload again`,
        );
      }
    }
    for (const thread of threads) thread.unref();
    const engine = new WorkerEngine(corpus, lookup, threads, options.callTimeoutMs ?? 2_000);
    const { from, cache, indexMs, saveMs, savedTo, saveError } = statuses[0]!;
    return { engine, from, lookup: cache, indexMs, saveMs, savedTo, saveError };
  }

  /** Whether `close` has ended the workers (a replaced engine, once retired). */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** How many workers (copies of the index) serve this engine. */
  get workers(): number {
    return this.#threads.length;
  }

  answer(question: string, options: AnswerOptions = {}): Answer {
    if (this.#successor) return this.#successor.answer(question, options);
    return answerIn(this.#idlest().callSync({ method: 'answer', question, options }, this.#timeoutMs));
  }

  closestHeadlines(question: string, limit = 3): Article[] {
    if (this.#successor) return this.#successor.closestHeadlines(question, limit);
    return this.#headlinesIn(
      this.#idlest().callSync({ method: 'closestHeadlines', question, limit }, this.#timeoutMs),
    );
  }

  override async answerAsync(question: string, options: AnswerOptions = {}): Promise<Answer> {
    if (this.#successor) return this.#successor.answerAsync(question, options);
    return answerIn(await this.#idlest().call({ method: 'answer', question, options }, ASYNC_TIMEOUT_MS));
  }

  override async closestHeadlinesAsync(question: string, limit = 3): Promise<Article[]> {
    if (this.#successor) return this.#successor.closestHeadlinesAsync(question, limit);
    return this.#headlinesIn(
      await this.#idlest().call({ method: 'closestHeadlines', question, limit }, ASYNC_TIMEOUT_MS),
    );
  }

  timeline(topic: string, options: { period?: Period } = {}): Timeline {
    if (this.#successor) return this.#successor.timeline(topic, options);
    return timelineIn(this.#idlest().callSync({ method: 'timeline', topic, options }, this.#timeoutMs));
  }

  override async timelineAsync(topic: string, options: { period?: Period } = {}): Promise<Timeline> {
    if (this.#successor) return this.#successor.timelineAsync(topic, options);
    return timelineIn(await this.#idlest().call({ method: 'timeline', topic, options }, ASYNC_TIMEOUT_MS));
  }

  articlesMentioning(text: string, limit = 1000): Article[] {
    if (this.#successor) return this.#successor.articlesMentioning(text, limit);
    return this.#headlinesIn(
      this.#idlest().callSync({ method: 'articlesMentioning', question: text, limit }, this.#timeoutMs),
    );
  }

  override async articlesMentioningAsync(text: string, limit = 1000): Promise<Article[]> {
    if (this.#successor) return this.#successor.articlesMentioningAsync(text, limit);
    return this.#headlinesIn(
      await this.#idlest().call({ method: 'articlesMentioning', question: text, limit }, ASYNC_TIMEOUT_MS),
    );
  }

  /** Each worker's heap, for the memory benchmark (after a full collection under `--expose-gc`). */
  async workerMemory(): Promise<ThreadMemory[]> {
    if (this.#closed !== undefined) throw new Error(`WorkerEngine: ${this.#closed}`);
    return Promise.all(
      this.#threads.map(async (thread) => {
        const reply = await thread.call({ method: 'memory' }, ASYNC_TIMEOUT_MS);
        if (!('memory' in reply)) throw new Error('WorkerEngine: the index worker sent no memory figures');
        return reply.memory;
      }),
    );
  }

  #headlinesIn(reply: IndexReply): Article[] {
    if (!reply.ok || !('articleIds' in reply))
      throw new Error('WorkerEngine: the index worker answered with no headlines');
    return reply.articleIds.flatMap((id) => this.article(id) ?? []);
  }

  /**
   * Each worker ends as soon as the searches it was asked are answered (not after a grace period:
   * until then the old and new indexes are both held); searches asked later go to `successor`.
   */
  override retire(successor: SearchEngine): void {
    if (this.#closed !== undefined || this.#successor !== undefined) return;
    this.#successor = successor;
    void Promise.all(this.#threads.map((thread) => thread.idle())).then(() => this.close());
  }

  /** Ends the workers; later searches throw. Citations, context and autocomplete keep working. */
  override close(): void {
    this.#closed ??= 'this engine was retired after a reload';
    for (const thread of this.#threads) thread.close(this.#closed);
  }

  /** The worker with the fewest searches in flight. */
  #idlest(): IndexThread {
    if (this.#closed !== undefined) throw new Error(`WorkerEngine: ${this.#closed}`);
    let best = this.#threads[0]!;
    for (const thread of this.#threads) if (thread.load < best.load) best = thread;
    return best;
  }
}

/** Index worker number `i` of an engine started with `options`. */
function indexThread(
  options: Omit<WorkerEngineOptions, 'corpus' | 'onProgress'>,
  i: number,
  corpusFrom: 'message' | 'path',
  onProgress: ((done: number, total: number) => void) | undefined,
  role: Pick<IndexWorkerData, 'handOff' | 'postings'> = {},
  limits?: ResourceLimits,
): IndexThread {
  return new IndexThread(
    {
      corpusFrom,
      corpusPath: options.corpusPath,
      cacheDir: options.cache?.dir ?? '',
      settingsFingerprint: options.cache?.settingsFingerprint ?? '',
      cacheMaxBytes: options.cache?.maxBytes ?? 0,
      persist: i === 0,
      ...role,
    },
    onProgress,
    limits,
  );
}

function timelineIn(reply: IndexReply): Timeline {
  if (!reply.ok || !('timeline' in reply))
    throw new Error('WorkerEngine: the index worker answered with no timeline');
  return reply.timeline;
}

function answerIn(reply: IndexReply): Answer {
  if (!reply.ok || !('answer' in reply))
    throw new Error('WorkerEngine: the index worker answered with no answer');
  return reply.answer;
}

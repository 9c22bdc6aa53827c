import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Article, Corpus } from '../corpus/article.ts';
import type { Answer, AnswerOptions } from '../search/answer.ts';
import { CorpusLookup } from '../search/corpus-lookup.ts';
import { SearchEngine } from '../search/search-engine.ts';
import type { CacheOutcome, IndexCache } from './index-cache.ts';
import type {
  IndexReply,
  IndexRequest,
  IndexWorkerData,
  IndexWorkerStatus,
} from './index-worker-protocol.ts';

/** Options of {@link WorkerEngine.start}. */
export interface WorkerEngineOptions {
  /** Where the worker reads the corpus from: the same path the main thread read `corpus` from. */
  corpusPath: string;
  /** The corpus as read and validated on this thread (or being read); the worker must find the same version. */
  corpus: Corpus | Promise<Corpus>;
  /** Restore the index from it when it matches, else build and save it. Omit for no cache. */
  cache?: IndexCache;
  /** Called now and then while the worker builds the index. */
  onProgress?: (done: number, total: number) => void;
  /**
   * How long one search may take before the call fails (a stuck worker must not hang the bot).
   * @default 10_000
   */
  callTimeoutMs?: number;
}

/** A started worker engine, with how its index came to be. */
export interface StartedWorkerEngine {
  engine: WorkerEngine;
  from: 'cache' | 'built';
  lookup: CacheOutcome;
  /** Milliseconds the worker spent restoring or building the index, and persisting it. */
  indexMs: number;
  saveMs: number;
  savedTo?: string;
  saveError?: string;
}

/**
 * A search engine whose index lives in a worker thread. The corpus stays here (citations, context,
 * autocomplete need no index); searches are synchronous calls into the worker: the main thread posts
 * the question and sleeps on a shared counter until the reply is posted, so callers keep the plain
 * `answer()` of an in-thread `Engine`. What this buys is the heap: building an index, and dropping the
 * old one after a reload, happen in other threads' heaps, so the main thread (gateway heartbeats, HTTP
 * requests) never waits on their garbage collection.
 */
export class WorkerEngine extends SearchEngine {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #replies: Int32Array;
  readonly #timeoutMs: number;
  #nextId = 1;
  #stopped: string | undefined;

  private constructor(
    corpus: Corpus,
    lookup: CorpusLookup,
    worker: Worker,
    port: MessagePort,
    replies: Int32Array,
    timeoutMs: number,
  ) {
    super(corpus, lookup);
    this.#worker = worker;
    this.#port = port;
    this.#replies = replies;
    this.#timeoutMs = timeoutMs;
    worker.on('exit', (code) => {
      this.#stopped ??= `the index worker stopped (exit code ${code})`;
    });
  }

  /**
   * Starts a worker on the corpus at `corpusPath`; resolves once it serves, rejects if it cannot. The
   * worker starts reading at once, alongside this thread's own reading when `corpus` is still a promise.
   */
  static async start(options: WorkerEngineOptions): Promise<StartedWorkerEngine> {
    const { port1, port2 } = new MessageChannel();
    const replies = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const workerData: IndexWorkerData = {
      corpusPath: options.corpusPath,
      cacheDir: options.cache?.dir ?? '',
      settingsFingerprint: options.cache?.settingsFingerprint ?? '',
      port: port2,
      replies,
    };
    const worker = new Worker(new URL('./index-worker-entry.mjs', import.meta.url), {
      workerData,
      transferList: [port2],
    });
    try {
      const ready = workerReady(worker, options.onProgress);
      // This thread's reading decides what is wrong with a corpus (a `CorpusError` lists every problem);
      // the worker's failure is only reported when this thread found nothing wrong.
      ready.catch(() => undefined);
      const corpus = await options.corpus;
      const [status, lookup] = await Promise.all([ready, CorpusLookup.ofAsync(corpus)]);
      if (status.version !== corpus.version) {
        throw new Error(
          `the corpus changed while it was being indexed (read ${corpus.version}, indexed ${status.version}); reload again`,
        );
      }
      // A worker that only answers is no reason to keep the process alive.
      worker.unref();
      const timeoutMs = options.callTimeoutMs ?? 10_000;
      const engine = new WorkerEngine(corpus, lookup, worker, port1, new Int32Array(replies), timeoutMs);
      const { from, cache, indexMs, saveMs, savedTo, saveError } = status;
      return {
        engine,
        from,
        lookup: cache,
        indexMs,
        saveMs,
        ...(savedTo === undefined ? {} : { savedTo }),
        ...(saveError === undefined ? {} : { saveError }),
      };
    } catch (error) {
      port1.close();
      void worker.terminate();
      throw error;
    }
  }

  answer(question: string, options: AnswerOptions = {}): Answer {
    const reply = this.#call({ id: this.#nextId++, method: 'answer', question, options });
    if (!('answer' in reply)) throw new Error('the index worker answered with no answer');
    return reply.answer;
  }

  closestHeadlines(question: string, limit = 3): Article[] {
    const reply = this.#call({ id: this.#nextId++, method: 'closestHeadlines', question, limit });
    if (!('articleIds' in reply)) throw new Error('the index worker answered with no headlines');
    return reply.articleIds.flatMap((id) => this.article(id) ?? []);
  }

  /** Ends the worker; later searches throw. Citations, context and autocomplete keep working. */
  override close(): void {
    this.#stopped ??= 'this engine was retired after a reload';
    this.#port.close();
    void this.#worker.terminate();
  }

  #call(request: IndexRequest): IndexReply & { ok: true } {
    if (this.#stopped !== undefined) throw new Error(this.#stopped);
    const deadline = performance.now() + this.#timeoutMs;
    let seen = Atomics.load(this.#replies, 0);
    this.#port.postMessage(request);
    for (;;) {
      // Replies to calls that timed out earlier may still be queued ahead of this one: skip them.
      for (
        let received = receiveMessageOnPort(this.#port);
        received;
        received = receiveMessageOnPort(this.#port)
      ) {
        const reply = received.message as IndexReply;
        if (reply.id !== request.id) continue;
        if (!reply.ok) throw new Error(`the index worker could not search: ${reply.message}`);
        return reply;
      }
      const left = deadline - performance.now();
      if (left <= 0 || this.#stopped !== undefined) {
        throw new Error(this.#stopped ?? `the index worker did not answer within ${this.#timeoutMs} ms`);
      }
      Atomics.wait(this.#replies, 0, seen, left);
      seen = Atomics.load(this.#replies, 0);
    }
  }
}

/** The worker's ready status, once it serves; rejects if it fails or exits first. */
function workerReady(
  worker: Worker,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<Extract<IndexWorkerStatus, { kind: 'ready' }>> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (status: IndexWorkerStatus) => {
      if (status.kind === 'progress') {
        onProgress?.(status.done, status.total);
        return;
      }
      settle();
      if (status.kind === 'failed') reject(new Error(status.message));
      else resolve(status);
    };
    const onError = (error: Error) => {
      settle();
      reject(new Error(`the index worker failed: ${error.message}`));
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`the index worker exited (code ${code}) before serving`));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}

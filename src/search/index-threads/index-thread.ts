import {
  MessageChannel,
  type MessagePort,
  type ResourceLimits,
  receiveMessageOnPort,
  Worker,
} from 'node:worker_threads';
import { corpusLimits } from '../../corpus/corpus-limits.ts';
import { CorpusError } from '../../corpus/problems.ts';
import type { SharedCorpus } from '../../corpus/shared-corpus.ts';
import { searchBegun } from '../searches-in-flight.ts';
import type {
  CorpusMessage,
  IndexReply,
  IndexRequest,
  IndexWorkerData,
  IndexWorkerStatus,
} from './index-worker-protocol.ts';

/** Each kind of request without its id: the thread numbers them. */
type WithoutId<Request> = Request extends unknown ? Omit<Request, 'id'> : never;
type Question = WithoutId<IndexRequest>;
type Answered = Extract<IndexReply, { ok: true }>;
export type ReadyStatus = Extract<IndexWorkerStatus, { kind: 'ready' }>;

/**
 * One worker thread holding an index, and the channel to it. A call is either synchronous (post, then
 * sleep on the shared reply counter until the reply is there) or asynchronous (a promise settled when
 * the reply arrives); replies carry the request's id, so both kinds can share the channel.
 */
export class IndexThread {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #replies: Int32Array;
  readonly #pending = new Map<
    number,
    { resolve: (reply: Answered) => void; reject: (error: Error) => void }
  >();
  #nextId = 1;
  #stopped: string | undefined;
  /** Called once no call is in flight (see `idle`). */
  #onIdle: (() => void)[] = [];
  /** Resolves with the worker's status once it serves; rejects if it fails or exits first. */
  readonly ready: Promise<ReadyStatus>;
  /**
   * With `corpusFrom: 'path'`: the corpus the worker read, once read; rejects with a `CorpusError` for
   * an invalid one, or if the worker fails first.
   */
  readonly corpus: Promise<SharedCorpus>;

  constructor(
    data: Omit<IndexWorkerData, 'port' | 'replies' | 'corpusLimits'>,
    onProgress?: (done: number, total: number) => void,
    resourceLimits?: ResourceLimits,
  ) {
    const { port1, port2 } = new MessageChannel();
    const replies = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    this.#port = port1;
    this.#replies = new Int32Array(replies);
    const workerData: IndexWorkerData = { ...data, corpusLimits: corpusLimits(), port: port2, replies };
    this.#worker = new Worker(new URL('./index-worker-entry.mjs', import.meta.url), {
      workerData,
      transferList: [port2],
      ...(resourceLimits ? { resourceLimits } : {}),
    });
    let read: (corpus: SharedCorpus) => void = () => undefined;
    const corpusRead = new Promise<SharedCorpus>((resolve) => {
      read = resolve;
    });
    this.ready = readyStatus(this.#worker, { onProgress, onCorpus: read });
    // Until the corpus arrives, it fails as the worker does.
    this.corpus = Promise.race([corpusRead, this.ready.then(() => corpusRead)]);
    // Nobody may be waiting yet; the caller of `ready` or `corpus` sees the failure.
    this.ready.catch(() => undefined);
    this.corpus.catch(() => undefined);
    this.#port.on('message', (reply: IndexReply) => this.#settle(reply));
    // Neither a worker that only answers nor its channel is a reason to keep the process alive.
    this.#port.unref();
    // An uncaught error in the worker ends it; without a listener it would end this process too.
    this.#worker.on('error', (error) => {
      this.#stop(`the index worker failed: ${failure(error)}`);
    });
    this.#worker.on('exit', (code) => {
      this.#stop(`the index worker stopped (exit code ${code})`);
    });
  }

  /** Calls in flight: the pool sends the next one to the thread with the fewest. */
  get load(): number {
    return this.#pending.size;
  }

  /** Posts the corpus to the worker, which reads it from the same shared memory. */
  sendCorpus(corpus: SharedCorpus): void {
    this.#worker.postMessage({ kind: 'corpus', corpus } satisfies CorpusMessage);
  }

  /** Resolves once no asynchronous call is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#onIdle.push(resolve));
  }

  /** Lets the process exit with the thread still running (once it serves). */
  unref(): void {
    this.#worker.unref();
  }

  /** Asks the worker; rejects if it has not answered within `timeoutMs` (a stuck worker). */
  call(question: Question, timeoutMs: number): Promise<Answered> {
    if (this.#stopped !== undefined) return Promise.reject(new Error(`IndexThread: ${this.#stopped}`));
    const request = { ...question, id: this.#nextId++ } as IndexRequest;
    return new Promise((resolve, reject) => {
      // While a caller awaits a reply, the process must not exit under it.
      if (this.#pending.size === 0) this.#port.ref();
      const timer = setTimeout(() => {
        this.#settle({ id: request.id, ok: false, message: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      const ended = searchBegun();
      const settled = () => {
        clearTimeout(timer);
        ended();
      };
      this.#pending.set(request.id, {
        resolve: (reply) => {
          settled();
          resolve(reply);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      this.#port.postMessage(request);
    });
  }

  /** `call`, waiting on this thread: nothing else runs here until the reply or the timeout. */
  callSync(question: Question, timeoutMs: number): Answered {
    if (this.#stopped !== undefined) throw new Error(`IndexThread: ${this.#stopped}`);
    const request = { ...question, id: this.#nextId++ } as IndexRequest;
    const deadline = performance.now() + timeoutMs;
    const seen = Atomics.load(this.#replies, 0);
    const ended = searchBegun();
    try {
      this.#port.postMessage(request);
      return this.#awaitReply(request.id, deadline, timeoutMs, seen);
    } finally {
      ended();
    }
  }

  /** `callSync`'s wait: replies read off the port, asleep on the reply counter between them. */
  #awaitReply(id: number, deadline: number, timeoutMs: number, seenBefore: number): Answered {
    let seen = seenBefore;
    for (;;) {
      for (
        let received = receiveMessageOnPort(this.#port);
        received;
        received = receiveMessageOnPort(this.#port)
      ) {
        const reply = received.message as IndexReply;
        // Replies to asynchronous calls sent earlier come first: settle them on the way.
        if (reply.id !== id) {
          this.#settle(reply);
          continue;
        }
        if (!reply.ok) throw new Error(`IndexThread: the index worker could not search: ${reply.message}`);
        return reply;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`IndexThread: the index worker did not answer within ${timeoutMs} ms`);
      Atomics.wait(this.#replies, 0, seen, left);
      seen = Atomics.load(this.#replies, 0);
    }
  }

  /** Ends the worker; calls in flight and later calls fail with `why`. */
  close(why: string): void {
    void this.end(why);
  }

  /** `close`, resolving once the worker has ended and its heap is given back. */
  async end(why: string): Promise<void> {
    this.#stop(why);
    this.#port.close();
    await this.#worker.terminate();
  }

  #settle(reply: IndexReply): void {
    const pending = this.#pending.get(reply.id);
    // A reply nobody waits for answers a call that timed out.
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply);
    else pending.reject(new Error(`IndexThread: the index worker could not search: ${reply.message}`));
    if (this.#pending.size === 0) this.#becameIdle();
  }

  #becameIdle(): void {
    this.#port.unref();
    for (const resolve of this.#onIdle.splice(0)) resolve();
  }

  #stop(why: string): void {
    this.#stopped ??= why;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(new Error(`IndexThread: ${this.#stopped}`));
    }
    this.#becameIdle();
  }
}

/** Why a worker failed, in plain words where Node's are not. */
function failure(error: Error): string {
  return (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? 'it ran out of memory (the heap a worker may use is limited)'
    : error.message;
}

function readyStatus(
  worker: Worker,
  on: {
    onProgress: ((done: number, total: number) => void) | undefined;
    onCorpus: (corpus: SharedCorpus) => void;
  },
): Promise<ReadyStatus> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (status: IndexWorkerStatus) => {
      if (status.kind === 'progress') {
        on.onProgress?.(status.done, status.total);
        return;
      }
      if (status.kind === 'corpus') {
        on.onCorpus(status.corpus);
        return;
      }
      settle();
      if (status.kind === 'refused') reject(new CorpusError(status.problems));
      else if (status.kind === 'failed') reject(new Error(`IndexThread: ${status.message}`));
      else resolve(status);
    };
    const onError = (error: Error) => {
      settle();
      reject(new Error(`IndexThread: the index worker failed: ${failure(error)}`));
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`IndexThread: the index worker exited (code ${code}) before serving`));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}

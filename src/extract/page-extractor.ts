import { Worker } from 'node:worker_threads';
import { type ExtractedArticle, NotAnArticleError } from './extract-article.ts';
import type { ExtractionFailure, ExtractionReply, ExtractionRequest } from './extraction-protocol.ts';
import { DEFAULT_PAGE_BOUNDS, type PageBounds, PageTooComplexError } from './page-bounds.ts';

/** A page whose reading was given up (too long, the worker failed, or the bot is stopping). */
export class PageNotReadError extends Error {
  override name = 'PageNotReadError';
  constructor(
    readonly code: 'extraction-timeout' | 'extraction-failed' | 'extractor-busy' | 'extractor-closed',
    message: string,
  ) {
    super(message);
  }
}

/** How a page is read: within what bounds, and for how long at most. */
export interface ExtractionLimits {
  bounds: PageBounds;
  /** EXTRACT_TIME_LIMIT_MS: past it the worker is ended and the page refused. */
  timeLimitMs: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  bounds: DEFAULT_PAGE_BOUNDS,
  timeLimitMs: 10_000,
};

/** How long a new worker may take to load its libraries before it is taken for stuck. */
const START_LIMIT_MS = 60_000;

/** Pages waiting at most behind the one being read; more are refused at once. */
const MAX_WAITING = 64;

interface Job {
  request: ExtractionRequest;
  timeLimitMs: number;
  resolve: (article: ExtractedArticle) => void;
  reject: (error: Error) => void;
}

/**
 * Reads pages on a worker thread of its own (`extraction-worker.ts`), one at a time, so that a page
 * crafted to be slow (deep nesting costs Readability the cube of its depth) never holds the thread that
 * answers questions. Each page has a time limit counted from when the worker starts on it: past it the
 * worker is terminated (a running extraction cannot be interrupted otherwise) and the next page starts
 * a new one. The worker is referenced only while it reads, so an idle one never keeps the process alive.
 */
export class PageExtractor {
  readonly #waiting: Job[] = [];
  #current: { job: Job; timer: NodeJS.Timeout | undefined } | undefined;
  #worker: Worker | undefined;
  /** Whether `#worker` has loaded its libraries (see `START_LIMIT_MS`). */
  #ready = false;
  #next = 0;

  /**
   * The article in `html`. Rejects with `PageTooComplexError` or `NotAnArticleError` as
   * `extractArticle` throws them, or `PageNotReadError` when the page was given up.
   */
  extract(
    html: string,
    pageUrl: string | undefined,
    limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
  ): Promise<ExtractedArticle> {
    if (this.#waiting.length >= MAX_WAITING) {
      return Promise.reject(
        new PageNotReadError(
          'extractor-busy',
          `${MAX_WAITING} pages are already waiting to be read; try again shortly.`,
        ),
      );
    }
    return new Promise<ExtractedArticle>((resolve, reject) => {
      const request: ExtractionRequest = { id: this.#next++, html, pageUrl, bounds: limits.bounds };
      this.#waiting.push({ request, timeLimitMs: limits.timeLimitMs, resolve, reject });
      this.#startNext();
    });
  }

  /** Ends the worker and refuses every page being read or waiting (the bot is stopping); a later page starts another. */
  async close(): Promise<void> {
    const waiting = this.#waiting.splice(0);
    const worker = this.#worker;
    this.#worker = undefined;
    this.#finish(closedError());
    for (const job of waiting) job.reject(closedError());
    if (worker) await worker.terminate();
  }

  #startNext(): void {
    if (this.#current !== undefined) return;
    const job = this.#waiting.shift();
    if (job === undefined) {
      this.#worker?.unref();
      return;
    }
    const worker = this.#started();
    worker.ref();
    this.#current = { job, timer: undefined };
    if (this.#ready) this.#post(worker);
    else {
      this.#current.timer = setTimeout(() => {
        this.#end(
          worker,
          new PageNotReadError('extraction-failed', 'The page reader did not start in time.'),
        );
      }, START_LIMIT_MS);
    }
  }

  /** Hands the current page to the worker, its time limit starting now. */
  #post(worker: Worker): void {
    const current = this.#current;
    if (current === undefined) return;
    const { job } = current;
    clearTimeout(current.timer);
    current.timer = setTimeout(() => {
      this.#end(
        worker,
        new PageNotReadError(
          'extraction-timeout',
          `Reading the page took longer than ${seconds(job.timeLimitMs)}; it was given up (EXTRACT_TIME_LIMIT_MS).`,
        ),
      );
    }, job.timeLimitMs);
    worker.postMessage(job.request);
  }

  /** Terminates `worker` (a running extraction cannot be stopped otherwise) and fails the current page. */
  #end(worker: Worker, error: PageNotReadError): void {
    if (this.#worker === worker) this.#worker = undefined;
    void worker.terminate();
    this.#finish(error);
  }

  /** Settles the page being read (with `error`, or the reply's outcome) and starts the next. */
  #finish(error: Error | undefined, reply?: ExtractionReply): void {
    const current = this.#current;
    if (current === undefined) return;
    this.#current = undefined;
    clearTimeout(current.timer);
    if (error !== undefined) current.job.reject(error);
    else if (reply !== undefined && 'article' in reply) current.job.resolve(reply.article);
    else if (reply !== undefined && 'failure' in reply) current.job.reject(errorOf(reply.failure));
    this.#startNext();
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./extraction-worker-entry.mjs', import.meta.url));
    this.#ready = false;
    worker.on('message', (reply: ExtractionReply) => {
      if (this.#worker !== worker) return;
      if ('ready' in reply) {
        this.#ready = true;
        this.#post(worker);
      } else if (this.#current?.job.request.id === reply.id) this.#finish(undefined, reply);
    });
    const failed = (why: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#finish(new PageNotReadError('extraction-failed', `The page could not be read: ${why}.`));
    };
    worker.on('error', (error) => failed(`the extractor failed (${error.message})`));
    worker.on('exit', () => failed('the extractor stopped'));
    this.#worker = worker;
    return worker;
  }
}

/** The error `extractArticle` threw in the worker, as its own class where it is one the callers know. */
function errorOf(failure: ExtractionFailure): Error {
  if (failure.name === 'NotAnArticleError')
    return new NotAnArticleError(failure.message, failure.detail ?? failure.message);
  if (
    failure.name === 'PageTooComplexError' &&
    (failure.code === 'page-too-deep' || failure.code === 'page-too-large')
  )
    return new PageTooComplexError(failure.code, failure.message);
  // A page the extractor chokes on (a stack overflow, a bug of its own) is this page's problem alone.
  return new PageNotReadError(
    'extraction-failed',
    `The page could not be read (${failure.name}: ${failure.message}).`,
  );
}

function closedError(): PageNotReadError {
  return new PageNotReadError('extractor-closed', 'The bot is stopping: the page was not read.');
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The process's extractor: every link, saved page, upload and feed item is read through it. */
export const pageExtractor = new PageExtractor();

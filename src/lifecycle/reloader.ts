import type { Corpus } from '../corpus/article.ts';
import { diffCorpora } from '../corpus/corpus-diff.ts';
import { CorpusError, type CorpusProblem, loadCorpus, notReadSummary } from '../corpus/load-corpus.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import { Engine } from '../search/engine.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import { type Actor, type AuditLog, systemActor } from './audit-log.ts';

/** Holds the engine currently serving; `Library` is one. Readers fetch `engine` per request. */
export interface EngineSlot {
  readonly engine: SearchEngine;
  /** Makes `engine` the one serving, in one assignment: a request sees the old or the new, never a mix. */
  swap(engine: SearchEngine): void;
}

/** What set a reload off, for the report and the audit log. */
export type ReloadTrigger =
  | 'command'
  | 'signal'
  | 'watch'
  | 'corpus-change'
  | 'shard-broadcast'
  | 'replica-broadcast'
  | 'startup';

/** Where a running reload is, for progress replies. */
export interface ReloadProgress {
  phase: 'reading' | 'indexing' | 'comparing';
  /** Articles indexed so far (indexing only). */
  done: number;
  /** Articles to index (indexing only). */
  total: number;
}

/** What a successful reload changed. */
export interface ReloadReport {
  trigger: ReloadTrigger;
  actor: Actor;
  /** Article ids new in this corpus. */
  added: string[];
  /** Article ids no longer in the corpus. */
  removed: string[];
  /** Article ids whose text or metadata changed. */
  changed: string[];
  articlesBefore: number;
  articlesAfter: number;
  passagesBefore: number;
  passagesAfter: number;
  versionBefore: string;
  versionAfter: string;
  /** Names in the corpus folder the loader did not read (other kinds of file, subfolders). */
  skipped: readonly string[];
  /** True when the corpus on disk equals the one serving: nothing was rebuilt or swapped. */
  unchanged: boolean;
  /** Wall time from start to swap. */
  durationMs: number;
  finishedAt: Date;
}

/** The result of asking for a reload. Only `reloaded` changed what is serving. */
export type ReloadOutcome =
  | { status: 'reloaded'; report: ReloadReport }
  /** The corpus failed validation; every problem is listed and the old index keeps serving. */
  | {
      status: 'refused';
      problems: readonly CorpusProblem[];
      message: string;
      version: string;
      durationMs: number;
    }
  /** Something other than the corpus went wrong (I/O, a bug); the old index keeps serving. */
  | { status: 'failed'; message: string; version: string; durationMs: number }
  /** Another reload is running; nothing was done. */
  | { status: 'busy'; runningSince: Date; runningFor: Actor; trigger: ReloadTrigger };

/** One reload request. */
export interface ReloadRequest {
  /** @default 'command' */
  trigger?: ReloadTrigger;
  /** @default the system actor named after the trigger */
  actor?: Actor;
  onProgress?: (progress: ReloadProgress) => void;
  /**
   * When a reload is already running: `false` answers `busy` at once (what `/reload` wants); `true`
   * waits for it and then reloads again, so a change written meanwhile is picked up. Queued requests
   * coalesce: however many wait, one more reload runs and they all get its outcome.
   * @default false
   */
  queue?: boolean;
}

/** Options of {@link Reloader}. */
export interface ReloaderOptions {
  /** Folder of articles, or one `.jsonl` file (CORPUS_PATH). */
  corpusPath: string;
  slot: EngineSlot;
  /** Receives one entry per reload, refused ones included. Omit to not record (tests, benchmarks). */
  audit?: AuditLog;
  /**
   * At most this many articles indexed between two yields to the event loop. The engine already
   * yields every few milliseconds of work (`BuildOptions.sliceMs`); set this only to force finer
   * slices (tests use 1 to see every step).
   * @default no limit beyond the engine's time budget
   */
  sliceSize?: number;
  /** Reads and validates the corpus. @default loadCorpus */
  load?: (path: string) => Promise<Corpus>;
  /**
   * Indexes a validated corpus read from `corpusPath`; a `WorkerEngine` keeps the index on another
   * thread. @default `Engine.buildAsync`, on this thread in slices
   */
  index?: (corpus: Corpus, onProgress: (done: number, total: number) => void) => Promise<SearchEngine>;
  /** Called after every swap with the new engine (persist it, tell other shards). Errors are logged. */
  onReloaded?: (engine: SearchEngine, report: ReloadReport) => void | Promise<void>;
  /** Where warnings about `onReloaded` failures go. @default a logger on stderr */
  logger?: Logger;
}

interface Running {
  since: Date;
  actor: Actor;
  trigger: ReloadTrigger;
  done: Promise<ReloadOutcome>;
}

/**
 * Reloads the corpus safely: read and validate all of it, build the new index in slices that yield to
 * the event loop, and only then swap it in. Any failure leaves the old engine serving. Never runs two
 * reloads at once.
 */
export class Reloader {
  readonly #options: ReloaderOptions;
  #running: Running | undefined;
  #queued: Promise<ReloadOutcome> | undefined;

  constructor(options: ReloaderOptions) {
    this.#options = options;
  }

  /** The engine serving now. */
  get servingEngine(): SearchEngine {
    return this.#options.slot.engine;
  }

  /** Whether a reload is running now. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /** Reloads, or answers `busy` (or waits, with `queue`) when a reload is already running. */
  reload(request: ReloadRequest = {}): Promise<ReloadOutcome> {
    const running = this.#running;
    if (running === undefined) return this.#start(request);
    if (!request.queue) {
      return Promise.resolve({
        status: 'busy',
        runningSince: running.since,
        runningFor: running.actor,
        trigger: running.trigger,
      });
    }
    this.#queued ??= running.done.then(() => {
      this.#queued = undefined;
      return this.reload({ ...request, queue: true });
    });
    return this.#queued;
  }

  #start(request: ReloadRequest): Promise<ReloadOutcome> {
    const trigger = request.trigger ?? 'command';
    const actor = request.actor ?? systemActor(trigger);
    const since = new Date();
    const done = this.#run(trigger, actor, request.onProgress).finally(() => {
      this.#running = undefined;
    });
    this.#running = { since, actor, trigger, done };
    return done;
  }

  async #run(
    trigger: ReloadTrigger,
    actor: Actor,
    onProgress: ((progress: ReloadProgress) => void) | undefined,
  ): Promise<ReloadOutcome> {
    const started = performance.now();
    const { slot, corpusPath, audit } = this.#options;
    const before = slot.engine;
    const elapsed = () => Math.round(performance.now() - started);
    let outcome: ReloadOutcome;
    try {
      onProgress?.({ phase: 'reading', done: 0, total: 0 });
      const corpus = await (this.#options.load ?? loadCorpus)(corpusPath);
      let after = before;
      if (corpus.version !== before.version) {
        after = await this.#index(corpus, (done, total) => onProgress?.({ phase: 'indexing', done, total }));
      }
      onProgress?.({ phase: 'comparing', done: 0, total: 0 });
      const diff = await diffCorpora(before.corpus, after.corpus);
      // The swap comes after every await: nothing can fail between it and the report.
      if (after !== before) {
        slot.swap(after);
        // Its workers end as soon as the searches they were asked are answered; a request that took
        // it before the swap and searches again is answered by its successor.
        before.retire(after);
      }
      outcome = {
        status: 'reloaded',
        report: {
          trigger,
          actor,
          ...diff,
          articlesBefore: before.corpus.articles.length,
          articlesAfter: after.corpus.articles.length,
          passagesBefore: before.passageCount,
          passagesAfter: after.passageCount,
          versionBefore: before.version,
          versionAfter: after.version,
          skipped: corpus.skipped ?? [],
          unchanged: after === before,
          durationMs: elapsed(),
          finishedAt: new Date(),
        },
      };
      if (after !== before) await this.#afterSwap(after, outcome.report);
    } catch (error) {
      outcome =
        error instanceof CorpusError
          ? {
              status: 'refused',
              problems: error.problems,
              message: error.message,
              version: before.version,
              durationMs: elapsed(),
            }
          : { status: 'failed', message: String(error), version: before.version, durationMs: elapsed() };
    }
    await audit?.record({
      actor,
      action: 'reload',
      outcome: outcome.status === 'reloaded' ? 'ok' : outcome.status === 'refused' ? 'refused' : 'failed',
      versionBefore: before.version,
      versionAfter: slot.engine.version,
      detail: `${trigger}: ${summarizeOutcome(outcome)}`,
    });
    return outcome;
  }

  #index(corpus: Corpus, onProgress: (done: number, total: number) => void): Promise<SearchEngine> {
    if (this.#options.index) return this.#options.index(corpus, onProgress);
    const { sliceSize } = this.#options;
    return Engine.buildAsync(corpus, { sliceSize, onProgress });
  }

  async #afterSwap(engine: SearchEngine, report: ReloadReport): Promise<void> {
    try {
      await this.#options.onReloaded?.(engine, report);
    } catch (error) {
      (this.#options.logger ?? createLogger()).warn('a listener to a corpus swap failed', { error });
    }
  }
}

/** One line saying what a reload did, for logs, the audit channel and replies. */
export function summarizeOutcome(outcome: ReloadOutcome): string {
  switch (outcome.status) {
    case 'reloaded': {
      const r = outcome.report;
      const notRead = r.skipped.length > 0 ? `; ${notReadSummary(r.skipped)}` : '';
      if (r.unchanged)
        return `corpus unchanged (version ${r.versionAfter}, ${r.articlesAfter} articles)${notRead}`;
      return (
        `${r.added.length} added, ${r.removed.length} removed, ${r.changed.length} changed; ` +
        `${r.passagesBefore} → ${r.passagesAfter} passages; version ${r.versionBefore} → ${r.versionAfter}; ` +
        `${(r.durationMs / 1000).toFixed(1)} s${notRead}`
      );
    }
    case 'refused': {
      const count = outcome.problems.length === 1 ? '1 problem' : `${outcome.problems.length} problems`;
      return `corpus refused (${count}); still serving version ${outcome.version}`;
    }
    case 'failed':
      return `reload failed (${outcome.message}); still serving version ${outcome.version}`;
    case 'busy':
      return `a reload started by ${outcome.runningFor.name} is already running`;
  }
}

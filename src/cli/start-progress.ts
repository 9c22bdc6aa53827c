import { type Options, SingleBar } from 'cli-progress';
import { notReadSummary } from '../corpus/load-corpus.ts';
import type { StartProgress, StartSummary } from '../search/index-cache/fast-start.ts';

/** Options of {@link startProgress}. */
export interface StartProgressOptions {
  /** Prefix of every line: `newsdesk`, `ask`. */
  label: string;
  /** @default process.stderr */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Not on a terminal (a log file, a pipe): one line this often. @default 3000 */
  everyMs?: number;
}

/**
 * Progress of a start on stderr, so a long read and index is never a silence: on a terminal one live
 * line (redrawn in place by cli-progress), elsewhere a line every few seconds; then one summary line.
 */
export function startProgress(options: StartProgressOptions): StartProgress {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const started = performance.now();
  const elapsed = () => ((performance.now() - started) / 1000).toFixed(0);
  let line = { phase: 'reading the corpus', done: 0, total: 0, unit: '', passages: -1 };
  const describe = (bar: string) => {
    const count = line.total > 0 ? ` ${bar}${grouped(line.done)}/${grouped(line.total)} ${line.unit}` : '';
    const passages = line.passages >= 0 ? `, ${grouped(line.passages)} passages` : '';
    return `${options.label}: ${line.phase}${count}${passages} · ${elapsed()} s`;
  };
  const barOptions: Options = {
    stream,
    noTTYOutput: true,
    notTTYSchedule: options.everyMs ?? 3000,
    hideCursor: tty,
    clearOnComplete: true,
    format: (_options, params) => {
      const width = 20;
      const filled = Math.round(params.progress * width);
      return describe(tty && line.total > 0 ? `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ` : '');
    },
  };
  let bar: SingleBar | undefined;
  const show = (next: typeof line) => {
    line = next;
    if (bar === undefined) {
      bar = new SingleBar(barOptions);
      bar.start(Math.max(1, line.total), line.done);
    } else {
      bar.setTotal(Math.max(1, line.total));
      bar.update(line.done);
    }
  };
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    reading: (done, total) =>
      show(
        done < total
          ? { phase: 'reading the corpus', done, total, unit: 'read', passages: -1 }
          : // Restoring the index, or starting to build it: the worker reports only a build's progress.
            { phase: 'opening the index', done: 0, total: 0, unit: '', passages: -1 },
      ),
    indexing: (done, total, passages) =>
      show({
        phase: done < total ? 'indexing' : 'saving the index for the next start',
        done,
        total,
        unit: 'articles',
        passages,
      }),
    ready: (summary) => {
      stop();
      stream.write(`${options.label}: ${summarizeStart(summary)}\n`);
    },
    stop,
  };
}

/**
 * `98,050`: a whole number with its thousands grouped, as `toLocaleString('en')` writes it, without
 * loading ICU's locale data for it (a tenth of a second of a cached CLI call's CPU).
 */
export function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** "ready: 21,578 articles, 50,233 passages, index from the cache, in 4.1 s". */
export function summarizeStart(summary: StartSummary): string {
  const parts = [
    `ready: ${grouped(summary.articles)} articles, ${grouped(summary.passages)} passages`,
    summary.from === 'built'
      ? 'index built'
      : summary.corpusFromCache
        ? 'corpus and index from the cache'
        : 'index from the cache',
    `in ${summary.seconds.toFixed(1)} s`,
  ];
  const notes = [
    ...(summary.skipped && summary.skipped.length > 0 ? [notReadSummary(summary.skipped)] : []),
    ...(summary.cacheNote ? [summary.cacheNote] : []),
  ];
  return `${parts.join(', ')}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

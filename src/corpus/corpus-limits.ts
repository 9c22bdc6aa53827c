import { DEFAULT_PAGE_BOUNDS, type PageBounds } from '../extract/page-bounds.ts';
import type { ExtractionLimits } from '../extract/page-extractor.ts';

/**
 * What the corpus reader refuses to read: a file larger than `maxFileBytes` (refused by its size before
 * a byte is read: a 200 MB file took a reload 33 s and 2.9 GB), and a saved page past `page`.
 */
export interface CorpusLimits {
  /** CORPUS_MAX_FILE_MB in bytes. */
  maxFileBytes: number;
  /** EXTRACT_MAX_DEPTH and EXTRACT_MAX_PAGE_MB: a web page past them is not read (`.html` files, links, feeds). */
  page: PageBounds;
  /** EXTRACT_TIME_LIMIT_MS: reading one page's article off the serving thread takes at most this. */
  extractTimeLimitMs: number;
}

export const DEFAULT_CORPUS_LIMITS: CorpusLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  page: DEFAULT_PAGE_BOUNDS,
  extractTimeLimitMs: 10_000,
};

let current: CorpusLimits = DEFAULT_CORPUS_LIMITS;

/**
 * The limits every read of a corpus in this thread applies. One setting for the whole process, set
 * once at start from the configuration (`setCorpusLimits`) and handed to the worker threads that read
 * corpora (in their `workerData`), so that a reload, a start and `/corpus add`'s check agree on what
 * a corpus may hold without every caller passing them down.
 */
export function corpusLimits(): CorpusLimits {
  return current;
}

export function setCorpusLimits(limits: CorpusLimits): void {
  current = limits;
}

/** How a web page is read off the serving thread, by these limits. */
export function extractionLimits(limits: CorpusLimits = current): ExtractionLimits {
  return { bounds: limits.page, timeLimitMs: limits.extractTimeLimitMs };
}

/** The limits a configuration states. */
export function corpusLimitsOf(config: {
  CORPUS_MAX_FILE_MB: number;
  EXTRACT_MAX_DEPTH: number;
  EXTRACT_MAX_PAGE_MB: number;
  EXTRACT_TIME_LIMIT_MS: number;
}): CorpusLimits {
  return {
    maxFileBytes: config.CORPUS_MAX_FILE_MB * 1024 * 1024,
    page: { maxDepth: config.EXTRACT_MAX_DEPTH, maxChars: config.EXTRACT_MAX_PAGE_MB * 1024 * 1024 },
    extractTimeLimitMs: config.EXTRACT_TIME_LIMIT_MS,
  };
}

import type { ArticleMeta } from '../corpus/article.ts';
import type { Period } from './period.ts';

/** How to ask the engine. */
export interface AnswerOptions {
  /**
   * How many results to return.
   * @default 3
   */
  limit?: number;
  /**
   * How many results to skip, for "More results" paging.
   * @default 0
   */
  offset?: number;
  /** Only answer from this article (the `/ask source:` option). */
  articleId?: string;
  /** Only answer from articles published in this period (undated articles are left out). */
  period?: Period;
}

/** A span of a quote that matched a question term, as `[start, end)` offsets into the quote. */
export interface Highlight {
  start: number;
  end: number;
}

/** One ranked passage, with everything needed to quote and cite it. */
export interface AnswerResult extends ArticleMeta {
  /** `articleId#paragraph`, the citation shown to users. */
  citation: string;
  article: string;
  paragraph: number;
  /** The sentence or two of the passage that best answer the question, verbatim. */
  quote: string;
  /** Where question terms occur in `quote`. */
  highlights: Highlight[];
  /** The whole passage, verbatim. */
  passage: string;
  /** Relevance; only comparable within one answer. */
  score: number;
  /** Citations of passages from other articles reporting the same fact, best first. */
  alsoReportedBy: string[];
}

/** The engine's reply to one question. `results` is empty when nothing in the corpus answers it. */
export interface Answer {
  query: string;
  results: AnswerResult[];
  /** Whether more results exist past `offset + limit`. */
  hasMore: boolean;
}

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
  /**
   * Only answer from articles of these outlets, as the corpus names their publishers (case aside): a
   * channel's outlets, or `/ask source:` naming an outlet. Empty or absent: every outlet.
   */
  publishers?: readonly string[];
  /** Only answer from articles published in this period (undated articles are left out). */
  period?: Period;
  /**
   * Read the question's time words: a year or month it names is preferred, and "latest" puts newer
   * reports first (`time-layer.ts`). Off only to measure what they change.
   * @default true
   */
  timeWords?: boolean;
}

/** One report of a fact, as the earliest or latest of its group. */
export interface ReportRef {
  citation: string;
  publisher: string | null;
  /** ISO 8601, as the source stated it. */
  published: string;
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
  /** Of the dated reports of this fact (this one and `alsoReportedBy`), the earliest and the latest, when they differ. */
  reported?: { earliest: ReportRef; latest: ReportRef };
}

/** How the question's time words shaped an answer. */
export interface AnswerTime {
  /** A year or month the question named: whether the corpus has coverage from then, else from when. */
  named?: { label: string; found: boolean; closest?: string };
  /** The question asked for the latest state: newer reports come first. */
  newestFirst?: boolean;
}

/** How sure the engine is that `results` answer the question (of the question, the same on every page). */
export type Assurance = 'answer' | 'closest' | 'none';

/** One story a question fits, offered when several fit with no clear winner ("Which story?"). */
export interface StoryChoice {
  /** Article id: asking again with `AnswerOptions.articleId` set to it answers within that story. */
  article: string;
  title: string;
  publisher: string | null;
  /** ISO 8601 as the source stated it, null when undated. */
  published: string | null;
}

/** The engine's reply to one question. `results` is empty when nothing in the corpus answers it. */
export interface Answer {
  query: string;
  results: AnswerResult[];
  /** Whether more results exist past `offset + limit`. */
  hasMore: boolean;
  /**
   * Present when the question's time words changed the order (see `AnswerTime`), or, with no results,
   * when it named a period nothing from which answers it.
   */
  time?: AnswerTime;
  /**
   * 'answer': the results answer the question; 'closest': the results are the closest coverage, which may
   * not answer it (shown under a plain first line saying so); 'none': `results` is empty.
   */
  assurance: Assurance;
  /**
   * Present (2 to 5 entries, best first) when the best candidates come from several distinct stories
   * with no clear winner: the reply asks "Which story?" and offers these. `results` still holds the
   * ranked passages. Never present when `AnswerOptions.articleId` is set.
   */
  stories?: StoryChoice[];
}

/** One article in a story's timeline: its passage nearest the topic. */
export interface TimelineEntry extends ArticleMeta {
  citation: string;
  article: string;
  quote: string;
  highlights: Highlight[];
}

/** The coverage of a topic in date order, oldest (the first report) first; undated articles apart. */
export interface Timeline {
  topic: string;
  dated: TimelineEntry[];
  undated: TimelineEntry[];
}

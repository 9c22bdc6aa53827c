import type { Article, Passage } from '../corpus/article.ts';
import type { ReloadOutcome, ReloadRequest } from '../lifecycle/reloader.ts';
import type { Answer, AnswerOptions } from '../search/answer.ts';

/**
 * The part of the core's search engine the commands use. Declared here, structurally, so the command
 * layer depends on a narrow contract rather than a class; `Engine` and `WorkerEngine` satisfy it.
 */
export interface EngineView {
  readonly version: string;
  readonly passageCount: number;
  answer(question: string, options?: AnswerOptions): Answer;
  /** `answer` without holding up this thread while the index (perhaps on another thread) is searched. */
  answerAsync(question: string, options?: AnswerOptions): Promise<Answer>;
  articles(): readonly Article[];
  article(id: string): Article | undefined;
  passage(citation: string): { article: Article; passage: Passage } | undefined;
  context(
    citation: string,
    radius?: number,
  ): { article: Article; passages: Passage[]; focus: number } | undefined;
  closestHeadlines(question: string, limit?: number): Article[];
  closestHeadlinesAsync(question: string, limit?: number): Promise<Article[]>;
  suggestArticles(text: string, limit?: number): Article[];
  suggestCitations(text: string, limit?: number): { citation: string; preview: string }[];
}

/** The part of the core's `Library` the commands use: read `engine` per request, never cache it. */
export interface LibraryView {
  readonly engine: EngineView;
  readonly loadedAt: Date;
}

/**
 * A library that can reload its corpus (`Library.reload`, from the corpus-lifecycle work). Declared
 * apart from `LibraryView` so a library without it (a test double, an older build) still serves every
 * other command; `/reload` checks for it at run time.
 */
export interface Reloadable {
  reload(request?: ReloadRequest): Promise<ReloadOutcome>;
}

export function isReloadable(library: LibraryView): library is LibraryView & Reloadable {
  return typeof (library as Partial<Reloadable>).reload === 'function';
}

import type { ExtractedArticle } from './extract-article.ts';
import type { PageBounds } from './page-bounds.ts';

/** Read the article in this page. */
export interface ExtractionRequest {
  id: number;
  html: string;
  pageUrl: string | undefined;
  bounds: PageBounds;
}

/** Why a page could not be read: the error's class (by name), its code and its message. */
export interface ExtractionFailure {
  name: string;
  code: string | undefined;
  message: string;
  /** `NotAnArticleError`'s detail. */
  detail: string | undefined;
}

export type ExtractionReply =
  /** The worker has loaded its libraries: pages' time limits start from here. */
  { ready: true } | { id: number; article: ExtractedArticle } | { id: number; failure: ExtractionFailure };

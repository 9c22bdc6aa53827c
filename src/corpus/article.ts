/** What the corpus knows about an article besides its text. Unknown values are `null`, never guessed. */
export interface ArticleMeta {
  title: string;
  publisher: string | null;
  url: string | null;
  /** ISO 8601 date (`YYYY-MM-DD`) or date-time, in the source's own time zone (`published-date.ts`). */
  published: string | null;
  author: string | null;
  language: string | null;
}

/** An article's metadata alone (for a citation, a quote check's source), without its text. */
export function articleMeta({
  title,
  publisher,
  url,
  published,
  author,
  language,
}: ArticleMeta): ArticleMeta {
  return { title, publisher, url, published, author, language };
}

/** One news article, validated and split into passages. */
export interface Article extends ArticleMeta {
  /** Stable id: the file name without extension, or the `id` of a JSON Lines record. */
  id: string;
  /** Where the article came from, for error messages and moderators: `corpus/foo.md` or `data.jsonl:12`. */
  source: string;
  /** Reporting passages in reading order (page furniture such as photo captions is not here). */
  passages: Passage[];
}

/** A paragraph-sized slice of one article: the unit that is indexed, ranked and quoted. */
export interface Passage {
  /**
   * `${articleId}#${paragraph}`: stable across reloads, shown to users as the citation. A paragraph
   * too long to quote whole is split at sentence boundaries; its later parts are `#12.2`, `#12.3`.
   */
  id: string;
  articleId: string;
  /** 1-based, counted as a reader counts the article's paragraphs (headline and captions not counted). */
  paragraph: number;
  /** Position among the article's passages, 0-based; neighbours are `index - 1` and `index + 1`. */
  index: number;
  /** The passage verbatim (whitespace of hard-wrapped text joined). */
  text: string;
}

/** A validated set of articles, ready to index. */
export interface Corpus {
  articles: Article[];
  /** Hash of every article's id, metadata and text: equal corpora have equal versions. */
  version: string;
  /**
   * Names in the corpus folder that were not read: files of other kinds (`notes.doc`) and subfolders
   * (`sub/`). Hidden files are not listed. Not part of the version.
   */
  skipped?: readonly string[];
}

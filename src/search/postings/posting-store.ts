/**
 * The postings of one field, term by term: the documents of term `t` are
 * `docs[offsets[t]] … docs[offsets[t + 1] - 1]` in ascending order, with their term frequencies in `tfs`.
 */
export interface Postings {
  offsets: Uint32Array;
  docs: Uint32Array;
  tfs: Uint16Array;
}

/**
 * Everything both indexes of an engine hold, in flat typed arrays: the passage text's postings and the
 * headlines' postings over one vocabulary, and each document's field lengths. The other two fields
 * MiniSearch searches are derived from the passage text when a term is first looked up: a passage's
 * `context` is its neighbours' text, an article's `text` is its passages' text (`derived-postings.ts`).
 * So an index is built and stored with a quarter of the postings, and loads without parsing any.
 */
export interface PostingStore {
  /** The vocabulary, in order of first occurrence; a term's number is its place here. */
  terms: string[];
  /** Article number of each passage (passages and articles numbered in corpus order). */
  passageArticle: Uint32Array;
  passageText: Postings;
  articleTitle: Postings;
  /** Distinct terms of each document's field, as MiniSearch counts a field's length. */
  lengths: {
    passageText: Uint32Array;
    passageContext: Uint32Array;
    articleText: Uint32Array;
    articleTitle: Uint32Array;
  };
}

/** Documents holding term `t` in `postings`. */
export function documentFrequency(postings: Postings, t: number): number {
  return t + 1 < postings.offsets.length ? postings.offsets[t + 1]! - postings.offsets[t]! : 0;
}

/** `[term, passages holding it]` for every term of the passage text. */
export function passageFrequencies(store: PostingStore): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const [t, term] of store.terms.entries()) {
    const df = documentFrequency(store.passageText, t);
    // A headline's words are in the vocabulary too; a passage never holds some of them.
    if (df > 0) frequencies.set(term, df);
  }
  return frequencies;
}

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
  /** The vocabulary, in ascending order (of UTF-16 code units); a term's number is its place here. */
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

/** The number of term `term` in the vocabulary, found by halving it, or -1. */
export function termNumber(terms: readonly string[], term: string): number {
  let low = 0;
  let high = terms.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = terms[middle]!;
    if (found === term) return middle;
    if (found < term) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * How many passages hold a term (the document frequency of BM25's idf), looked up in the sorted
 * vocabulary: nothing to build when an index is restored. A term no passage holds has none.
 */
export class PassageFrequencies {
  constructor(private readonly store: PostingStore) {}

  get(term: string): number | undefined {
    const t = termNumber(this.store.terms, term);
    const df = t < 0 ? 0 : documentFrequency(this.store.passageText, t);
    return df > 0 ? df : undefined;
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }
}

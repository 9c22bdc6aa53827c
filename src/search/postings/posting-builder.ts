import type { PostingStore, Postings } from './posting-store.ts';

/** A `Uint32Array` that grows as it is appended to: a build's postings without an object per posting. */
class Column {
  array: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.array = new Uint32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = new Uint32Array(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }

  /** The values, trimmed to length (a copy, so the spare capacity is freed). */
  done(): Uint32Array {
    return this.array.slice(0, this.length);
  }
}

/** Document-by-document postings of one field, turned term-major by `finish`. */
class FieldColumns {
  readonly terms = new Column(1 << 16);
  readonly tfs = new Column(1 << 16);
  /** Where each document's postings start in `terms` and `tfs`. */
  readonly starts = new Column();

  /**
   * Sorts the postings by term (stably, so each term's documents stay in ascending order), term `t`
   * becoming term `rank[t]`.
   */
  finish(rank: Uint32Array): Postings {
    const termCount = rank.length;
    const offsets = new Uint32Array(termCount + 1);
    const terms = this.terms.array;
    const count = this.terms.length;
    for (let k = 0; k < count; k++) terms[k] = rank[terms[k]!]!;
    for (let k = 0; k < count; k++) offsets[terms[k]! + 1]!++;
    for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
    const next = offsets.slice(0, termCount);
    const docs = new Uint32Array(count);
    const tfs = new Uint16Array(count);
    const starts = this.starts.array;
    const documents = this.starts.length;
    for (let d = 0; d < documents; d++) {
      const end = d + 1 < documents ? starts[d + 1]! : count;
      for (let k = starts[d]!; k < end; k++) {
        const at = next[terms[k]!]!++;
        docs[at] = d;
        // A paragraph or headline repeating one word 65,535 times is no text; its count is capped.
        tfs[at] = Math.min(this.tfs.array[k]!, 0xffff);
      }
    }
    return { offsets, docs, tfs };
  }
}

/**
 * Builds a {@link PostingStore} one article at a time from terms already analysed. Counting is done in
 * arrays indexed by term number and reused for every document, so a build makes almost no garbage.
 */
export class PostingBuilder {
  readonly #termIds = new Map<string, number>();
  readonly #terms: string[] = [];
  readonly #passageText = new FieldColumns();
  readonly #articleTitle = new FieldColumns();
  readonly #passageArticle = new Column();
  readonly #lengths = {
    passageText: new Column(),
    passageContext: new Column(),
    articleText: new Column(),
    articleTitle: new Column(),
  };
  #articles = 0;
  /** Occurrences of each term in the document being counted (all zero between documents). */
  #counts = new Uint32Array(1 << 16);
  /** `#marks[t] === #mark`: term `t` was seen in the current union (bumping `#mark` clears them all). */
  #marks = new Uint32Array(1 << 16);
  #mark = 0;
  /** The distinct terms of each passage of the current article, one after the other. */
  readonly #distinct = new Column();
  readonly #distinctStarts: number[] = [];

  /** Adds an article: its headline's terms and each passage's terms, in order. */
  add(title: readonly string[], passages: readonly (readonly string[])[]): void {
    const article = this.#articles++;
    this.#distinct.length = 0;
    this.#distinctStarts.length = 0;
    for (const terms of passages) {
      this.#distinctStarts.push(this.#distinct.length);
      this.#count(terms, this.#passageText, this.#lengths.passageText, this.#distinct);
      this.#passageArticle.push(article);
    }
    this.#distinctStarts.push(this.#distinct.length);
    // A passage's `context` is as long as the distinct terms of its neighbours together, as MiniSearch
    // counts a field of their terms (the scores are those of an index filled by `add`).
    for (let i = 0; i < passages.length; i++) {
      this.#lengths.passageContext.push(this.#union(i - 1, i, i + 1, i + 2));
    }
    let articleLength = this.#union(0, passages.length);
    // An article's text counts one term more when an empty passage stands among several, as MiniSearch
    // counts the empty token between two spaces of the passages' terms joined: the field lengths, and so
    // the scores, of an index filled by `add`.
    if (passages.length > 1 && passages.some((terms) => terms.length === 0)) articleLength++;
    this.#lengths.articleText.push(articleLength);
    this.#count(title, this.#articleTitle, this.#lengths.articleTitle);
  }

  /** The store, once every article is added. The builder is spent after. */
  finish(): PostingStore {
    // Numbered in ascending order, so that a radix tree of them is made in one pass (and stored so).
    const order = this.#terms.map((_, t) => t).sort((a, b) => compare(this.#terms[a]!, this.#terms[b]!));
    const rank = new Uint32Array(order.length);
    for (const [r, t] of order.entries()) rank[t] = r;
    return {
      terms: order.map((t) => this.#terms[t]!),
      passageArticle: this.#passageArticle.done(),
      passageText: this.#passageText.finish(rank),
      articleTitle: this.#articleTitle.finish(rank),
      lengths: {
        passageText: this.#lengths.passageText.done(),
        passageContext: this.#lengths.passageContext.done(),
        articleText: this.#lengths.articleText.done(),
        articleTitle: this.#lengths.articleTitle.done(),
      },
    };
  }

  /** Records one document's postings in `field` and its length; its distinct terms go to `distinct`. */
  #count(terms: readonly string[], field: FieldColumns, length: Column, distinct?: Column): void {
    const start = field.terms.length;
    field.starts.push(start);
    for (const term of terms) {
      const t = this.#termIds.get(term) ?? this.#addTerm(term);
      // First occurrence: the posting is recorded now, its count filled in below.
      if (this.#counts[t]!++ === 0) field.terms.push(t);
    }
    const counts = this.#counts;
    const end = field.terms.length;
    const order = field.terms.array;
    for (let k = start; k < end; k++) {
      const t = order[k]!;
      field.tfs.push(counts[t]!);
      counts[t] = 0;
      distinct?.push(t);
    }
    length.push(end - start);
  }

  /** Distinct terms of the current article's passages `[from, to)` and `[from2, to2)`, clamped to it. */
  #union(from: number, to: number, from2 = 0, to2 = 0): number {
    const mark = ++this.#mark;
    return this.#visit(from, to, mark) + this.#visit(from2, to2, mark);
  }

  /** Marks the distinct terms of passages `[from, to)` with `mark`; returns how many were not marked yet. */
  #visit(from: number, to: number, mark: number): number {
    const last = this.#distinctStarts.length - 1;
    const starts = this.#distinctStarts;
    const marks = this.#marks;
    const ids = this.#distinct.array;
    const end = starts[Math.min(Math.max(to, 0), last)]!;
    let count = 0;
    for (let k = starts[Math.min(Math.max(from, 0), last)]!; k < end; k++) {
      const t = ids[k]!;
      if (marks[t] !== mark) {
        marks[t] = mark;
        count++;
      }
    }
    return count;
  }

  #addTerm(term: string): number {
    const t = this.#terms.length;
    this.#terms.push(term);
    this.#termIds.set(term, t);
    if (t === this.#counts.length) {
      const counts = new Uint32Array(t * 2);
      counts.set(this.#counts);
      this.#counts = counts;
      const marks = new Uint32Array(t * 2);
      marks.set(this.#marks);
      this.#marks = marks;
    }
    return t;
  }
}

/** Orders strings by UTF-16 code units, as `Array.prototype.sort` does by default. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

import MiniSearch, { type Options } from 'minisearch';
import {
  articleTextRun,
  articleTitleRun,
  type PostingRun,
  passageContextRun,
  passageTextRun,
} from './derived-postings.ts';
import type { PostingStore } from './posting-store.ts';

/**
 * One field's postings of one term, as MiniSearch reads them while scoring (`size`, `keys()` and
 * `get(doc)` in key order): two typed arrays instead of a `Map` of boxed entries.
 */
class PostingList {
  readonly #docs: Uint32Array;
  readonly #tfs: Uint16Array | Uint32Array;
  /** Where the next `get` most likely looks: MiniSearch asks for the documents in order. */
  #next = 0;

  constructor({ docs, tfs }: PostingRun) {
    this.#docs = docs;
    this.#tfs = tfs;
  }

  get size(): number {
    return this.#docs.length;
  }

  keys(): IterableIterator<number> {
    return this.#docs.values();
  }

  get(doc: number): number | undefined {
    const docs = this.#docs;
    let at = this.#next;
    if (docs[at] !== doc) {
      let low = 0;
      let high = docs.length - 1;
      at = -1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const value = docs[middle]!;
        if (value === doc) {
          at = middle;
          break;
        }
        if (value < doc) low = middle + 1;
        else high = middle - 1;
      }
      if (at < 0) return undefined;
    }
    this.#next = at + 1;
    return this.#tfs[at];
  }

  has(doc: number): boolean {
    return this.get(doc) !== undefined;
  }

  *entries(): IterableIterator<[number, number]> {
    for (let i = 0; i < this.#docs.length; i++) yield [this.#docs[i]!, this.#tfs[i]!];
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }
}

/**
 * A term's entry in a MiniSearch index: its postings by field number, made from the store the first
 * time the term is searched, then kept.
 */
class TermPostings {
  readonly #lists: (PostingList | null | undefined)[] = [];

  constructor(
    private readonly runs: readonly ((t: number) => PostingRun)[],
    private readonly term: number,
  ) {}

  get(field: number): PostingList | undefined {
    let list = this.#lists[field];
    if (list === undefined) {
      const run = this.runs[field]?.(this.term);
      list = run && run.docs.length > 0 ? new PostingList(run) : null;
      this.#lists[field] = list;
    }
    return list ?? undefined;
  }
}

/** What of MiniSearch's state a view fills in; MiniSearch 7.2 keeps it in these fields. */
interface MiniSearchState {
  _index: { set(term: string, value: unknown): unknown };
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
}

/**
 * A MiniSearch index over `ids` (document `i` has short id `i`) with `fields` in MiniSearch's order, for
 * the terms `terms` (term number `t` is `terms[t]`) that `holds`.
 * It searches as one filled with `add` would (same scores), but is filled without analysing a document
 * and holds no postings until a term is searched. MiniSearch has no public way to be given an index
 * other than its own JSON, which would cost a parse of every posting; hence its fields are set here.
 */
function miniSearchOver<T>(
  options: Options<T>,
  ids: readonly string[],
  fields: readonly Field[],
  terms: readonly string[],
  holds: (t: number) => boolean,
): MiniSearch<T> {
  const lengths = fields.map((field) => field.lengths);
  const runs = fields.map((field) => field.run);
  const index = new MiniSearch<T>(options);
  const state = index as unknown as MiniSearchState;
  if (
    typeof state._index?.set !== 'function' ||
    !(state._documentIds instanceof Map) ||
    !(state._fieldLength instanceof Map) ||
    !Array.isArray(state._avgFieldLength)
  ) {
    throw new Error('minisearch-view: this MiniSearch version keeps its index differently (7.2 expected)');
  }
  state._documentCount = ids.length;
  state._nextId = ids.length;
  for (const [i, id] of ids.entries()) {
    state._documentIds.set(i, id);
    state._idToShortId.set(id, i);
    state._fieldLength.set(
      i,
      lengths.map((field) => field[i]!),
    );
  }
  // The running mean, as MiniSearch computes it while adding: the same floating-point result.
  state._avgFieldLength = lengths.map((field) => {
    let mean = 0;
    for (let i = 0; i < field.length; i++) mean = (mean * i + field[i]!) / (i + 1);
    return mean;
  });
  for (const [t, term] of terms.entries()) {
    if (holds(t)) state._index.set(term, new TermPostings(runs, t));
  }
  return index;
}

/** The two MiniSearch indexes of an engine, over a corpus's passages and articles. */
export interface IndexViews<P, A> {
  passageIndex: MiniSearch<P>;
  articleIndex: MiniSearch<A>;
}

type Field = { lengths: Uint32Array; run: (t: number) => PostingRun };

/** Field `name` of `fields`, in the order of `options.fields` (MiniSearch numbers fields so). */
function inOrder(options: Options<unknown>, fields: Record<string, Field>): Field[] {
  return options.fields.map((name) => {
    const field = fields[name];
    if (!field) throw new Error(`minisearch-view: no postings for the field "${name}"`);
    return field;
  });
}

/**
 * The passage index (fields `text`, `context`) and the article index (`text`, `title`) over `store`,
 * for the corpus whose passage and article ids, in order, are given.
 */
export function indexViews<P, A>(
  store: PostingStore,
  ids: { passages: readonly string[]; articles: readonly string[] },
  options: { passages: Options<P>; articles: Options<A> },
): IndexViews<P, A> {
  const { lengths } = store;
  const { offsets: textOffsets } = store.passageText;
  const { offsets: titleOffsets } = store.articleTitle;
  const inText = (t: number) => textOffsets[t + 1]! > textOffsets[t]!;
  const inTitle = (t: number) => titleOffsets[t + 1]! > titleOffsets[t]!;
  const passageFields = inOrder(options.passages as Options<unknown>, {
    text: { lengths: lengths.passageText, run: (t) => passageTextRun(store, t) },
    context: { lengths: lengths.passageContext, run: (t) => passageContextRun(store, t) },
  });
  const articleFields = inOrder(options.articles as Options<unknown>, {
    text: { lengths: lengths.articleText, run: (t) => articleTextRun(store, t) },
    title: { lengths: lengths.articleTitle, run: (t) => articleTitleRun(store, t) },
  });
  return {
    passageIndex: miniSearchOver(options.passages, ids.passages, passageFields, store.terms, inText),
    articleIndex: miniSearchOver(
      options.articles,
      ids.articles,
      articleFields,
      store.terms,
      (t) => inText(t) || inTitle(t),
    ),
  };
}

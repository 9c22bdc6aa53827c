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
 * `get(doc)` in key order): two typed arrays instead of a `Map` of boxed entries. A `Map` to the
 * compiler (MiniSearch's typings ask for one), whose own entries stay empty: the view is read-only.
 */
class PostingList extends Map<number, number> {
  readonly #docs: Uint32Array;
  readonly #tfs: Uint16Array | Uint32Array;
  /** Where the next `get` most likely looks: MiniSearch asks for the documents in order. */
  #next = 0;

  constructor({ docs, tfs }: PostingRun) {
    super();
    this.#docs = docs;
    this.#tfs = tfs;
  }

  override get size(): number {
    return this.#docs.length;
  }

  override keys(): MapIterator<number> {
    return this.#docs.values();
  }

  override get(doc: number): number | undefined {
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

  override has(doc: number): boolean {
    return this.get(doc) !== undefined;
  }

  override *entries(): MapIterator<[number, number]> {
    for (let i = 0; i < this.#docs.length; i++) yield [this.#docs[i]!, this.#tfs[i]!];
  }

  override [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}

/**
 * Derived postings (a passage's `context`, an article's `text`) are made when a term is first searched
 * and kept for the next search of it, up to this many bytes an index; past it, those of the terms
 * searched least recently are let go (and made again if searched again). Without a bound, every term
 * ever searched would keep them: at 121k passages, up to about 45 MB a worker. Each of the two indexes
 * has this budget.
 */
export const DERIVED_POSTINGS_BUDGET = 16 * 2 ** 20;

/** The derived postings an index holds, least recently searched first, and their size. */
class DerivedPostings {
  readonly #held = new Map<TermPostings, number>();
  #bytes = 0;

  constructor(private readonly budget: number) {}

  /** `entry` was searched and holds `bytes` of derived postings (0 when it holds none). */
  used(entry: TermPostings, bytes: number): void {
    const held = this.#held.get(entry);
    if (held === undefined && bytes === 0) return;
    // To the end of the order: most recently searched.
    this.#held.delete(entry);
    this.#held.set(entry, (held ?? 0) + bytes);
    this.#bytes += bytes;
    for (const [oldest, size] of this.#held) {
      if (this.#bytes <= this.budget || oldest === entry) break;
      this.#held.delete(oldest);
      this.#bytes -= size;
      oldest.forget();
    }
  }

  get bytes(): number {
    return this.#bytes;
  }
}

/**
 * A term's entry in a MiniSearch index: its postings by field number, made from the store the first
 * time the term is searched. Stored fields' postings are views of the store; derived ones are copies,
 * kept within the index's budget. A `Map` to the compiler, read through `get` only.
 */
class TermPostings extends Map<number, PostingList> {
  #lists: (PostingList | null | undefined)[] = [];
  readonly #fields: readonly Field[];
  readonly #term: number;
  readonly #derived: DerivedPostings;

  constructor(fields: readonly Field[], term: number, derived: DerivedPostings) {
    super();
    this.#fields = fields;
    this.#term = term;
    this.#derived = derived;
  }

  override get(field: number): PostingList | undefined {
    let list = this.#lists[field];
    if (list === undefined) {
      const { run, isDerived } = this.#fields[field] ?? {};
      const made = run?.(this.#term);
      list = made && made.docs.length > 0 ? new PostingList(made) : null;
      this.#lists[field] = list;
      const bytes = isDerived && made ? made.docs.byteLength + made.tfs.byteLength : 0;
      this.#derived.used(this, bytes);
    } else {
      this.#derived.used(this, 0);
    }
    return list ?? undefined;
  }

  /** Lets go of the derived postings (all of them: the stored ones cost no more than a view). */
  forget(): void {
    this.#lists = [];
  }
}

/** A node of MiniSearch's radix tree: edges by label, and its value under the empty label. */
type RadixNode = Map<string, RadixNode | TermPostings>;

/**
 * A node of the tree `radixTree` makes, whose edges are worked out when first read: a search walks a
 * few paths of a tree of a hundred thousand terms, and a CLI call restored from the cache asks one
 * question, so making every node up front cost it more than the question. Read-only, as the view is:
 * MiniSearch reads nodes through `get`, `has` and iteration; only its removals read `size`.
 */
class LazyNode extends Map<string, RadixNode | TermPostings> {
  #fill: ((node: LazyNode) => void) | undefined;

  constructor(fill: (node: LazyNode) => void) {
    super();
    this.#fill = fill;
  }

  #fillOnce(): void {
    const fill = this.#fill;
    if (fill === undefined) return;
    this.#fill = undefined;
    fill(this);
  }

  override get(key: string): RadixNode | TermPostings | undefined {
    this.#fillOnce();
    return super.get(key);
  }

  override has(key: string): boolean {
    this.#fillOnce();
    return super.has(key);
  }

  override keys(): MapIterator<string> {
    this.#fillOnce();
    return super.keys();
  }

  override values(): MapIterator<RadixNode | TermPostings> {
    this.#fillOnce();
    return super.values();
  }

  override entries(): MapIterator<[string, RadixNode | TermPostings]> {
    this.#fillOnce();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, RadixNode | TermPostings]> {
    return this.entries();
  }

  override forEach(
    callback: (
      value: RadixNode | TermPostings,
      key: string,
      map: Map<string, RadixNode | TermPostings>,
    ) => void,
    thisArg?: unknown,
  ): void {
    this.#fillOnce();
    super.forEach(callback, thisArg);
  }
}

/**
 * The radix tree MiniSearch's `SearchableMap` would grow by inserting `keys` one by one (a leaf under
 * the empty label, edges labelled with the longest prefixes their keys share), from the keys in
 * ascending order; each node is made when first read.
 */
function radixTree(
  keys: readonly string[],
  value: (i: number) => TermPostings,
  from = 0,
  to = keys.length,
  depth = 0,
): RadixNode {
  return new LazyNode((node) => {
    let i = from;
    if (i < to && keys[i]!.length === depth) node.set('', value(i++));
    while (i < to) {
      const first = keys[i]!;
      const head = first.charCodeAt(depth);
      let j = i + 1;
      while (j < to && keys[j]!.charCodeAt(depth) === head) j++;
      // Sorted keys: what the first and the last of the group share, all of it shares.
      const last = keys[j - 1]!;
      const limit = Math.min(first.length, last.length);
      let end = depth + 1;
      while (end < limit && first.charCodeAt(end) === last.charCodeAt(end)) end++;
      node.set(first.slice(depth, end), radixTree(keys, value, i, j, end));
      i = j;
    }
  });
}

/**
 * Documents' ids in short-id order: an array, or anything that makes the `i`th when asked (a corpus
 * restored from the CLI's snapshot makes its passages' ids only for the passages a search returns).
 */
export interface IdList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** Document short ids to ids, as MiniSearch reads them (`has`, `get`); a read-only `Map` to the compiler. */
class DocumentIds extends Map<number, string> {
  readonly #ids: IdList;

  constructor(ids: IdList) {
    super();
    this.#ids = ids;
  }

  override get size(): number {
    return this.#ids.length;
  }

  override has(doc: number): boolean {
    return doc < this.#ids.length;
  }

  override get(doc: number): string | undefined {
    return this.#ids.at(doc);
  }

  override *entries(): MapIterator<[number, string]> {
    for (let doc = 0; doc < this.#ids.length; doc++) yield [doc, this.#ids.at(doc)!];
  }

  override [Symbol.iterator](): MapIterator<[number, string]> {
    return this.entries();
  }
}

/** Ids to document short ids, made only if asked for: searching never does. A read-only `Map` to the compiler. */
class ShortIds extends Map<string, number> {
  #map: Map<string, number> | undefined;
  readonly #ids: IdList;

  constructor(ids: IdList) {
    super();
    this.#ids = ids;
  }

  get #byId(): Map<string, number> {
    this.#map ??= new Map(Array.from({ length: this.#ids.length }, (_, i) => [this.#ids.at(i)!, i]));
    return this.#map;
  }

  override get size(): number {
    return this.#ids.length;
  }

  override has(id: string): boolean {
    return this.#byId.has(id);
  }

  override get(id: string): number | undefined {
    return this.#byId.get(id);
  }
}

/**
 * Each document's field lengths, as MiniSearch reads them (`get(doc)[field]`, read at once), over one
 * array per field: no array per document. A read-only `Map` to the compiler.
 */
class FieldLengths extends Map<number, number[]> {
  readonly #read: number[];
  readonly #fields: readonly Uint32Array[];

  constructor(fields: readonly Uint32Array[]) {
    super();
    this.#fields = fields;
    this.#read = fields.map(() => 0);
  }

  override get(doc: number): number[] | undefined {
    if (doc >= (this.#fields[0]?.length ?? 0)) return undefined;
    for (let f = 0; f < this.#fields.length; f++) this.#read[f] = this.#fields[f]![doc]!;
    return this.#read;
  }
}

/**
 * A MiniSearch index over `ids` (document `i` has short id `i`) with `fields` in MiniSearch's order, for
 * the terms `terms` (ascending; term number `t` is `terms[t]`) that `holds`. It searches as one filled
 * with `add` would (same scores), but is filled without analysing a document and holds no postings
 * until a term is searched. MiniSearch's public way to be given an index, `loadJS`, takes every
 * posting as an object up front; a subclass sets the protected fields `add` would fill (MiniSearch's
 * typings name them and their types, so a version that renames one fails to compile; minisearch is
 * pinned in package.json). Read-only: `add`, `remove` and `discard` are not for a view.
 */
class MiniSearchView<T> extends MiniSearch<T> {
  constructor(
    options: Options<T>,
    ids: IdList,
    fields: readonly Field[],
    terms: readonly string[],
    holds: (t: number) => boolean,
    derived: DerivedPostings,
  ) {
    super(options);
    const lengths = fields.map((field) => field.lengths);
    this._documentCount = ids.length;
    this._nextId = ids.length;
    this._documentIds = new DocumentIds(ids);
    this._idToShortId = new ShortIds(ids);
    this._fieldLength = new FieldLengths(lengths);
    // The running mean, as MiniSearch computes it while adding: the same floating-point result.
    this._avgFieldLength = lengths.map((field) => {
      let mean = 0;
      for (let i = 0; i < field.length; i++) mean = (mean * i + field[i]!) / (i + 1);
      return mean;
    });
    const held: number[] = [];
    for (let t = 0; t < terms.length; t++) if (holds(t)) held.push(t);
    const tree = radixTree(
      held.map((t) => terms[t]!),
      (i) => new TermPostings(fields, held[i]!, derived),
    );
    this._index = this.#searchableMapOf(tree);
  }

  /**
   * MiniSearch's own `SearchableMap` (the class of the empty one `super` made) over a tree of the shape
   * its constructor takes (`new SearchableMap(tree)`): the typings export neither that class from the
   * package's entry point nor the tree's type, whose leaf key ('') is branded, hence the cast.
   */
  #searchableMapOf(tree: RadixNode): MiniSearchView<T>['_index'] {
    const Index = this._index.constructor as new (tree: RadixNode) => MiniSearchView<T>['_index'];
    return new Index(tree);
  }
}

/** The two MiniSearch indexes of an engine, over a corpus's passages and articles. */
export interface IndexViews<P, A> {
  passageIndex: MiniSearch<P>;
  articleIndex: MiniSearch<A>;
  /** Bytes of derived postings the two indexes hold now (see {@link DERIVED_POSTINGS_BUDGET}). */
  derivedBytes(): number;
}

type Field = { lengths: Uint32Array; run: (t: number) => PostingRun; isDerived: boolean };

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
  ids: { passages: IdList; articles: IdList },
  options: { passages: Options<P>; articles: Options<A>; derivedBudget?: number },
): IndexViews<P, A> {
  const budget = options.derivedBudget ?? DERIVED_POSTINGS_BUDGET;
  const passageDerived = new DerivedPostings(budget);
  const articleDerived = new DerivedPostings(budget);
  const { lengths } = store;
  const { offsets: textOffsets } = store.passageText;
  const { offsets: titleOffsets } = store.articleTitle;
  const inText = (t: number) => textOffsets[t + 1]! > textOffsets[t]!;
  const inTitle = (t: number) => titleOffsets[t + 1]! > titleOffsets[t]!;
  const passageFields = inOrder(options.passages as Options<unknown>, {
    text: { lengths: lengths.passageText, run: (t) => passageTextRun(store, t), isDerived: false },
    context: { lengths: lengths.passageContext, run: (t) => passageContextRun(store, t), isDerived: true },
  });
  const articleFields = inOrder(options.articles as Options<unknown>, {
    text: { lengths: lengths.articleText, run: (t) => articleTextRun(store, t), isDerived: true },
    title: { lengths: lengths.articleTitle, run: (t) => articleTitleRun(store, t), isDerived: false },
  });
  return {
    passageIndex: new MiniSearchView(
      options.passages,
      ids.passages,
      passageFields,
      store.terms,
      inText,
      passageDerived,
    ),
    articleIndex: new MiniSearchView(
      options.articles,
      ids.articles,
      articleFields,
      store.terms,
      (t) => inText(t) || inTitle(t),
      articleDerived,
    ),
    derivedBytes: () => passageDerived.bytes + articleDerived.bytes,
  };
}

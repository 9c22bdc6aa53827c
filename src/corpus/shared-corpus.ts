import { finish, finishInSlices, type Steps, TimeSlicer } from '../event-loop.ts';
import type { Article, Corpus, Passage } from './article.ts';

/**
 * A corpus laid out for every thread of the bot at once: the passages' text as UTF-8 in one
 * `SharedArrayBuffer` with each passage's byte offsets, and the rest (ids, headlines, dates) as JSON
 * lines in another. Posting it to a worker copies nothing but the two handles, and every thread reads
 * the same bytes: the text, most of a corpus's memory, is held once however many index workers serve.
 */
export interface SharedCorpus {
  version: string;
  skipped?: readonly string[];
  /** The passages' text back to back, in corpus order. */
  text: SharedArrayBuffer;
  /** Uint32: passage `n`'s text is bytes `offsets[n]` to `offsets[n + 1]` of `text`. */
  offsets: SharedArrayBuffer;
  /** One JSON line per article: {@link ArticleLine}. */
  articles: SharedArrayBuffer;
}

/**
 * An article's metadata and how many passages it has, read eagerly by every thread (autocomplete and
 * the reload's comparison need the metadata of all articles), then its passages' line (see below).
 */
type ArticleLine = [
  id: string,
  source: string,
  title: string,
  publisher: string | null,
  url: string | null,
  published: string | null,
  author: string | null,
  language: string | null,
  passages: number,
  /** Whether every passage id is the article's id, `#` and a suffix without `#` (`citedThroughArticle`). */
  citedThroughArticle: boolean,
];

/**
 * Its passages' id suffixes (after `#`; a whole other id after `\u0000`) and paragraph numbers: a line
 * of its own, parsed only when the article's passages are first read, so that reading a corpus makes
 * one object an article rather than several a passage.
 */
type PassagesLine = [suffixes: string[], paragraphs: number[]];

/** The bytes all passages of one corpus read their text from. */
class PassageTexts {
  readonly #bytes: Buffer;
  readonly #offsets: Uint32Array;

  constructor(text: SharedArrayBuffer, offsets: SharedArrayBuffer) {
    this.#bytes = Buffer.from(text);
    this.#offsets = new Uint32Array(offsets);
  }

  text(n: number): string {
    return this.#bytes.toString('utf8', this.#offsets[n]!, this.#offsets[n + 1]!);
  }

  /** Passage `n`'s bytes (a view, not a copy). */
  bytes(n: number): Buffer {
    return this.#bytes.subarray(this.#offsets[n]!, this.#offsets[n + 1]!);
  }

  /**
   * Whether passages `first`… (`count` of them) here hold the same texts as passages `otherFirst`… of
   * `other`: the same bytes, split at the same places.
   */
  sameRun(first: number, count: number, other: PassageTexts, otherFirst: number): boolean {
    const start = this.#offsets[first]!;
    const otherStart = other.#offsets[otherFirst]!;
    for (let i = 1; i <= count; i++) {
      if (this.#offsets[first + i]! - start !== other.#offsets[otherFirst + i]! - otherStart) return false;
    }
    const end = this.#offsets[first + count]!;
    return this.#bytes
      .subarray(start, end)
      .equals(other.#bytes.subarray(otherStart, otherStart + end - start));
  }
}

/**
 * A passage whose text is decoded from the shared bytes whenever it is read: a few fields of its own
 * instead of a copy of its text in every thread. `text` is an own, enumerable property (one getter
 * shared by all), so spreading, `JSON.stringify` and equality checks see a passage as a plain one.
 */
class SharedPassage implements Passage {
  declare readonly text: string;
  readonly #texts: PassageTexts;
  readonly #n: number;

  static readonly #text = {
    enumerable: true,
    get(this: SharedPassage): string {
      return this.#texts.text(this.#n);
    },
  };

  /** Whether `other` has the same text, compared as bytes when both are views (nothing decoded). */
  static sameText(one: Passage, other: Passage): boolean {
    if (one instanceof SharedPassage && other instanceof SharedPassage)
      return one.#texts.bytes(one.#n).equals(other.#texts.bytes(other.#n));
    return one.text === other.text;
  }

  constructor(
    readonly id: string,
    readonly articleId: string,
    readonly paragraph: number,
    readonly index: number,
    texts: PassageTexts,
    n: number,
  ) {
    this.#texts = texts;
    this.#n = n;
    Object.defineProperty(this, 'text', SharedPassage.#text);
  }
}

/** One corpus's shared bytes, as a thread reads them. */
interface SharedBytes {
  texts: PassageTexts;
  /** The article lines (`SharedCorpus.articles`). */
  lines: Buffer;
}

/**
 * An article of a shared corpus whose passages are made from the shared bytes when first read, then
 * kept: the serving thread reads a few articles' passages (the ones cited), not a hundred thousand
 * objects at every reload. `passages` is an own, enumerable property, as `text` is on a passage.
 */
class SharedArticle implements Article {
  declare readonly passages: Passage[];
  readonly #bytes: SharedBytes;
  /** Where its passages' line is in `lines`. */
  readonly #line: number;
  readonly #lineEnd: number;
  /** Its first passage's number in the corpus, and how many it has. */
  readonly #first: number;
  readonly #count: number;
  readonly #citedThroughArticle: boolean;
  #passages: Passage[] | undefined;

  static readonly #passagesProperty = {
    enumerable: true,
    get(this: SharedArticle): Passage[] {
      this.#passages ??= this.#views();
      return this.#passages;
    },
  };

  static count(article: Article): number {
    return article instanceof SharedArticle ? article.#count : article.passages.length;
  }

  static citedThroughArticle(article: Article): boolean | undefined {
    return article instanceof SharedArticle ? article.#citedThroughArticle : undefined;
  }

  /** Whether both hold the same passages (ids, paragraphs, texts); `undefined` unless both are shared. */
  static samePassages(one: Article, other: Article): boolean | undefined {
    if (!(one instanceof SharedArticle && other instanceof SharedArticle)) return undefined;
    if (one.#count !== other.#count || one.#lineEnd - one.#line !== other.#lineEnd - other.#line)
      return false;
    const ids = one.#bytes.lines.subarray(one.#line, one.#lineEnd);
    if (!ids.equals(other.#bytes.lines.subarray(other.#line, other.#lineEnd))) return false;
    return one.#bytes.texts.sameRun(one.#first, one.#count, other.#bytes.texts, other.#first);
  }

  constructor(
    readonly id: string,
    readonly source: string,
    readonly title: string,
    readonly publisher: string | null,
    readonly url: string | null,
    readonly published: string | null,
    readonly author: string | null,
    readonly language: string | null,
    place: {
      bytes: SharedBytes;
      line: number;
      lineEnd: number;
      first: number;
      count: number;
      cited: boolean;
    },
  ) {
    this.#bytes = place.bytes;
    this.#line = place.line;
    this.#lineEnd = place.lineEnd;
    this.#first = place.first;
    this.#count = place.count;
    this.#citedThroughArticle = place.cited;
    Object.defineProperty(this, 'passages', SharedArticle.#passagesProperty);
  }

  #views(): Passage[] {
    const { id } = this;
    const line = this.#bytes.lines.toString('utf8', this.#line, this.#lineEnd);
    const [suffixes, paragraphs] = JSON.parse(line) as PassagesLine;
    return suffixes.map(
      (suffix, index) =>
        new SharedPassage(
          suffix.startsWith('\u0000') ? suffix.slice(1) : `${id}#${suffix}`,
          id,
          paragraphs[index]!,
          index,
          this.#bytes.texts,
          this.#first + index,
        ),
    );
  }
}

/**
 * Whether two passages have the same text. Passages of shared corpora are compared as bytes: reading
 * `text` would decode every passage of both corpora a reload compares into strings, only to drop them.
 */
export function sameText(one: Passage, other: Passage): boolean {
  return SharedPassage.sameText(one, other);
}

/**
 * Whether two articles hold the same passages: ids, paragraphs and texts. Two articles of shared
 * corpora are compared on their bytes, without making their passages.
 */
export function samePassages(one: Article, other: Article): boolean {
  const shared = SharedArticle.samePassages(one, other);
  if (shared !== undefined) return shared;
  if (one.passages.length !== other.passages.length) return false;
  return one.passages.every((passage, i) => {
    const then = other.passages[i]!;
    return passage.id === then.id && passage.paragraph === then.paragraph && sameText(passage, then);
  });
}

/** How many passages an article has (for an article of a shared corpus, without making them). */
export function passageCount(article: Article): number {
  return SharedArticle.count(article);
}

/**
 * For an article of a shared corpus, whether every passage's id is the article's id, `#`, and a
 * suffix without `#` (a citation found through its article), known without making its passages;
 * `undefined` for any other article.
 */
export function citedThroughArticle(article: Article): boolean | undefined {
  return SharedArticle.citedThroughArticle(article);
}

/**
 * Every passage's id, in corpus order. For a shared corpus each is made (with its article's passages)
 * when first asked for: an index worker restoring its index would otherwise make every passage of the
 * corpus, a hundred thousand objects, before its first question; a search asks for the ids it returns.
 */
export function passageIds(corpus: Corpus): {
  readonly length: number;
  at(index: number): string | undefined;
} {
  const { articles } = corpus;
  if (!articles.every((article) => article instanceof SharedArticle)) {
    return articles.flatMap((article) => article.passages.map((passage) => passage.id));
  }
  // firsts[a]: the number of article `a`'s first passage; firsts[articles.length]: how many there are.
  const firsts = new Uint32Array(articles.length + 1);
  for (const [a, article] of articles.entries()) firsts[a + 1] = firsts[a]! + passageCount(article);
  const total = firsts[articles.length]!;
  const made = new Array<string>(total);
  const idOf = (p: number): string => {
    let low = 0;
    let high = articles.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (firsts[middle]! <= p) low = middle;
      else high = middle - 1;
    }
    return articles[low]!.passages[p - firsts[low]!]!.id;
  };
  return {
    length: total,
    at(p) {
      if (!Number.isInteger(p) || p < 0 || p >= total) return undefined;
      made[p] ??= idOf(p);
      return made[p];
    },
  };
}

function linesOf(article: Article): string {
  const prefix = `${article.id}#`;
  // Passage ids are the article's id, `#`, and the paragraph (`#12.2` for a split one's later parts).
  const suffixes = article.passages.map((passage) =>
    passage.id.startsWith(prefix) ? passage.id.slice(prefix.length) : `\u0000${passage.id}`,
  );
  const meta: ArticleLine = [
    article.id,
    article.source,
    article.title,
    article.publisher,
    article.url,
    article.published,
    article.author,
    article.language,
    article.passages.length,
    suffixes.every((suffix) => !suffix.includes('#') && !suffix.startsWith('\u0000')),
  ];
  const passages: PassagesLine = [suffixes, article.passages.map((passage) => passage.paragraph)];
  return `${JSON.stringify(meta)}\n${JSON.stringify(passages)}\n`;
}

/**
 * Strings written one after the other into a new `SharedArrayBuffer` of their UTF-8 bytes; with
 * `offsets`, where each starts (and, last, where the bytes end).
 */
function sharedBytes(strings: readonly string[], offsets?: Uint32Array): SharedArrayBuffer {
  let size = 0;
  for (const string of strings) size += Buffer.byteLength(string, 'utf8');
  if (size > 0xffff_ffff) throw new Error('shareCorpus: the corpus holds more than 4 GB of text');
  const shared = new SharedArrayBuffer(size);
  const bytes = Buffer.from(shared);
  let at = 0;
  for (const [n, string] of strings.entries()) {
    if (offsets) offsets[n] = at;
    at += bytes.write(string, at, 'utf8');
  }
  if (offsets) offsets[strings.length] = at;
  return shared;
}

/**
 * `corpus` as a {@link SharedCorpus}, and the same corpus with its passages as views of the shared
 * text, to use on this thread in its place so that this thread's own copy of the text can be
 * collected. Slices its work, yielding to the event loop: it runs on the serving thread during reloads.
 */
export async function shareCorpus(corpus: Corpus): Promise<{ shared: SharedCorpus; corpus: Corpus }> {
  const slicer = new TimeSlicer();
  const texts: string[] = [];
  const lines: string[] = [];
  for (const article of corpus.articles) {
    for (const passage of article.passages) texts.push(passage.text);
    lines.push(linesOf(article));
    await slicer.pause();
  }
  const offsets = new SharedArrayBuffer((texts.length + 1) * Uint32Array.BYTES_PER_ELEMENT);
  const text = sharedBytes(texts, new Uint32Array(offsets));
  texts.length = 0;
  await slicer.yield();
  const shared: SharedCorpus = {
    version: corpus.version,
    ...(corpus.skipped ? { skipped: corpus.skipped } : {}),
    text,
    offsets,
    articles: sharedBytes(lines),
  };
  // Read back from the bytes, not made from `corpus`'s strings: once `corpus` is dropped, the heap pages
  // it filled hold nothing and are given back, where objects kept from it would pin them all.
  return { shared, corpus: await readSharedCorpus(shared, slicer) };
}

/** `openSharedCorpus` in slices, yielding to the event loop: for the serving thread. */
export function readSharedCorpus(shared: SharedCorpus, slicer = new TimeSlicer()): Promise<Corpus> {
  return finishInSlices(readSteps(shared), slicer);
}

/** The corpus a {@link SharedCorpus} holds, its passages reading their text from the shared bytes. */
export function openSharedCorpus(shared: SharedCorpus): Corpus {
  return finish(readSteps(shared));
}

function* readSteps(shared: SharedCorpus): Steps<Corpus> {
  const lines = Buffer.from(shared.articles);
  const bytes: SharedBytes = { texts: new PassageTexts(shared.text, shared.offsets), lines };
  const articles: Article[] = [];
  let first = 0;
  for (let at = 0, end = lines.indexOf(0x0a); end >= 0; at = end + 1, end = lines.indexOf(0x0a, at)) {
    const meta = JSON.parse(lines.toString('utf8', at, end)) as ArticleLine;
    const [id, source, title, publisher, url, published, author, language, count, cited] = meta;
    const line = end + 1;
    const lineEnd = lines.indexOf(0x0a, line);
    const place = { bytes, line, lineEnd, first, count, cited };
    articles.push(new SharedArticle(id, source, title, publisher, url, published, author, language, place));
    first += count;
    end = lineEnd;
    yield;
  }
  return corpusWith(shared, articles);
}

function corpusWith(shared: SharedCorpus, articles: Article[]): Corpus {
  return {
    articles,
    version: shared.version,
    ...(shared.skipped ? { skipped: shared.skipped } : {}),
  };
}

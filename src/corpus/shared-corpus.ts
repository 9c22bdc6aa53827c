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

/** An article's metadata, then its passages' id suffixes (after `#`) and paragraph numbers. */
type ArticleLine = [
  id: string,
  source: string,
  title: string,
  publisher: string | null,
  url: string | null,
  published: string | null,
  author: string | null,
  language: string | null,
  suffixes: string[],
  paragraphs: number[],
];

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

/**
 * Whether two passages have the same text. Passages of shared corpora are compared as bytes: reading
 * `text` would decode every passage of both corpora a reload compares into strings, only to drop them.
 */
export function sameText(one: Passage, other: Passage): boolean {
  return SharedPassage.sameText(one, other);
}

function lineOf(article: Article): ArticleLine {
  const prefix = `${article.id}#`;
  const line: ArticleLine = [
    article.id,
    article.source,
    article.title,
    article.publisher,
    article.url,
    article.published,
    article.author,
    article.language,
    // Passage ids are the article's id, `#`, and the paragraph (`#12.2` for a split one's later parts).
    article.passages.map((passage) =>
      passage.id.startsWith(prefix) ? passage.id.slice(prefix.length) : `\u0000${passage.id}`,
    ),
    article.passages.map((passage) => passage.paragraph),
  ];
  return line;
}

/** `article` with its passages as views of passages `first`… of `texts`. */
function withViews(
  article: Omit<Article, 'passages'>,
  suffixes: readonly string[],
  paragraphs: readonly number[],
  texts: PassageTexts,
  first: number,
): Article {
  const { id } = article;
  const passages = suffixes.map(
    (suffix, index) =>
      new SharedPassage(
        suffix.startsWith('\u0000') ? suffix.slice(1) : `${id}#${suffix}`,
        id,
        paragraphs[index]!,
        index,
        texts,
        first + index,
      ),
  );
  return { ...article, passages };
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
    lines.push(`${JSON.stringify(lineOf(article))}\n`);
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
  const texts = new PassageTexts(shared.text, shared.offsets);
  const articles: Article[] = [];
  let first = 0;
  const lines = Buffer.from(shared.articles);
  for (let at = 0, end = lines.indexOf(0x0a); end >= 0; at = end + 1, end = lines.indexOf(0x0a, at)) {
    const line = JSON.parse(lines.toString('utf8', at, end)) as ArticleLine;
    const [id, source, title, publisher, url, published, author, language, suffixes, paragraphs] = line;
    const meta = { id, source, title, publisher, url, published, author, language };
    articles.push(withViews(meta, suffixes, paragraphs, texts, first));
    first += suffixes.length;
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

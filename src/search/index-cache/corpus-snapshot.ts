import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Article, Corpus, Passage } from '../../corpus/article.ts';
import type { IdList } from '../postings/minisearch-view.ts';

/** Bump when the layout below changes. */
const SNAPSHOT_LAYOUT = 5;

/**
 * The articles' metadata as the snapshot keeps it: one array per field, entry `a` for article `a` (a
 * column each parses for about half the time and memory twenty thousand rows would take). Its source
 * is a file (an index into `files`) and a line (`data.jsonl:12`), or -1 for a whole file; its passages'
 * ids are derived from their numbers.
 */
interface StoredArticles {
  id: string[];
  file: number[];
  line: number[];
  title: string[];
  publisher: (string | null)[];
  url: (string | null)[];
  published: (string | null)[];
  author: (string | null)[];
  language: (string | null)[];
  passages: number[];
}

const STORED_FIELDS = [
  'id',
  'file',
  'line',
  'title',
  'publisher',
  'url',
  'published',
  'author',
  'language',
  'passages',
] as const satisfies readonly (keyof StoredArticles)[];

/**
 * A run of whole articles' text, checked by its own hash when it is first read: the articles it
 * holds (counted from the previous block's end), and the first 32 hex digits of its bytes' sha256.
 */
type TextBlock = [articles: number, hash: string];

/**
 * A column of the stored articles: checked to be an array only. Checking each of its entries (ten
 * columns of 24,000 at 24k articles) would cost a start from the snapshot 40-100 ms; an entry of the
 * wrong kind is found where it is read (a passage count by its bounds, text by its block's hash).
 */
const column = <T>() => z.custom<T[]>((value) => Array.isArray(value));

const SNAPSHOT_HEAD = z.object({
  layout: z.literal(SNAPSHOT_LAYOUT),
  version: z.string(),
  skipped: z.array(z.string()).readonly(),
  files: z.array(z.string()),
  articles: z.object({
    id: column<string>(),
    file: column<number>(),
    line: column<number>(),
    title: column<string>(),
    publisher: column<string | null>(),
    url: column<string | null>(),
    published: column<string | null>(),
    author: column<string | null>(),
    language: column<string | null>(),
    passages: column<number>(),
  }) satisfies z.ZodType<StoredArticles>,
  /** How the passages' text is encoded: Latin-1 when every character fits in a byte. */
  text: z.enum(['latin1', 'utf8']),
  blocks: z.array(z.tuple([z.number(), z.string()])),
});
type SnapshotHead = z.infer<typeof SNAPSHOT_HEAD>;

type TextEncoding = 'latin1' | 'utf8';

/** Latin-1 decodes by copying bytes, several times faster than UTF-8 (a tenth of a second on Reuters). */
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/u;

/** Per passage, in the numbers section: its paragraph, its part of a split paragraph (0 for the first) and its length in bytes. */
const NUMBERS_PER_PASSAGE = 3;

/**
 * Text bytes a block holds at least (the articles that fill it, whole): a question reads the blocks of
 * the few articles it reaches, and each block read is hashed; a hash costs the head 40 bytes a block.
 */
const BLOCK_BYTES = 32 * 1024;

const LONE_SURROGATE = /\p{Cs}/u;

/** A snapshot that cannot be what it claims: malformed, or a block of its text damaged since it was written. */
export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

/** `#12` for the first part of paragraph 12, `#12.2` for its second (`chunk.ts`). */
function passageId(articleId: string, paragraph: number, part: number): string {
  return part === 0 ? `${articleId}#${paragraph}` : `${articleId}#${paragraph}.${part + 1}`;
}

function blockHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/** A snapshot's bytes: the part read whole at once (head and numbers), and the text read as needed. */
export interface EncodedSnapshot {
  /** Checked whole by the cache file's checksum; it holds the hash of every block of the text. */
  index: Uint8Array[];
  text: Uint8Array[];
}

/**
 * A parsed corpus as bytes, so that a start can restore it instead of parsing its files again: the
 * articles' metadata as JSON (its length first), three numbers per passage, then every passage's text
 * in order as one Latin-1 or UTF-8 run, in blocks of whole articles each with its hash in the head, so
 * that only the blocks a question reaches are ever read (`decodeCorpusSnapshot`). Undefined for a
 * corpus whose passage ids or sources are not of the loader's forms, or whose text UTF-8 cannot hold:
 * such a corpus is not kept (and is read from its files each time).
 */
export function encodeCorpusSnapshot(corpus: Corpus): EncodedSnapshot | undefined {
  const files = new Map<string, number>();
  const articles: StoredArticles = {
    id: [],
    file: [],
    line: [],
    title: [],
    publisher: [],
    url: [],
    published: [],
    author: [],
    language: [],
    passages: [],
  };
  const parts: number[] = [];
  let encoding: TextEncoding = 'latin1';
  for (const article of corpus.articles) {
    for (const passage of article.passages) {
      const split = /\.(\d+)$/.exec(passage.id);
      const part = split ? Number(split[1]) - 1 : 0;
      if (passage.id !== passageId(article.id, passage.paragraph, part)) return undefined;
      // A lone surrogate (a JSON Lines `\ud800`) would not survive UTF-8: such a corpus is not kept.
      if (passage.articleId !== article.id || LONE_SURROGATE.test(passage.text)) return undefined;
      parts.push(part);
      if (encoding === 'latin1' && BEYOND_LATIN1.test(passage.text)) encoding = 'utf8';
    }
    const lined = /^(.*):(\d+)$/.exec(article.source);
    const [file, line] =
      lined && `${lined[1]}:${Number(lined[2])}` === article.source
        ? [lined[1]!, Number(lined[2])]
        : [article.source, -1];
    if (!files.has(file)) files.set(file, files.size);
    articles.id.push(article.id);
    articles.file.push(files.get(file)!);
    articles.line.push(line);
    articles.title.push(article.title);
    articles.publisher.push(article.publisher);
    articles.url.push(article.url);
    articles.published.push(article.published);
    articles.author.push(article.author);
    articles.language.push(article.language);
    articles.passages.push(article.passages.length);
  }

  const numbers: number[] = [];
  const text: Uint8Array[] = [];
  const blocks: TextBlock[] = [];
  let block: string[] = [];
  let blockBytes = 0;
  let blockArticles = 0;
  const endBlock = () => {
    const bytes = Buffer.from(block.join(''), encoding);
    blocks.push([blockArticles, blockHash(bytes)]);
    text.push(bytes);
    block = [];
    blockBytes = 0;
    blockArticles = 0;
  };
  let passageNumber = 0;
  for (const article of corpus.articles) {
    for (const passage of article.passages) {
      const bytes = encoding === 'latin1' ? passage.text.length : Buffer.byteLength(passage.text, 'utf8');
      numbers.push(passage.paragraph, parts[passageNumber++]!, bytes);
      block.push(passage.text);
      blockBytes += bytes;
    }
    blockArticles++;
    if (blockBytes >= BLOCK_BYTES) endBlock();
  }
  if (blockArticles > 0) endBlock();

  const head: SnapshotHead = {
    layout: SNAPSHOT_LAYOUT,
    version: corpus.version,
    skipped: corpus.skipped ?? [],
    files: [...files.keys()],
    articles,
    text: encoding,
    blocks,
  };
  const headBytes = Buffer.from(JSON.stringify(head));
  // Padded so that the numbers after it start on a 4-byte boundary.
  const lengths = new Uint32Array([headBytes.byteLength, numbers.length]);
  const padding = new Uint8Array((4 - (headBytes.byteLength % 4)) % 4);
  return {
    index: [
      new Uint8Array(lengths.buffer),
      headBytes,
      padding,
      new Uint8Array(new Uint32Array(numbers).buffer),
    ],
    text,
  };
}

/** Bytes of a snapshot's head and numbers (`EncodedSnapshot.index`), from its first 8 bytes; undefined when it has fewer. */
export function snapshotIndexLength(bytes: Uint8Array): number | undefined {
  if (bytes.byteLength < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const headLength = view.getUint32(0, true);
  return 8 + headLength + ((4 - (headLength % 4)) % 4) + view.getUint32(4, true) * 4;
}

/** Where a snapshot's text is: `read` returns `length` bytes from `position` (counted from the text's start). */
export interface SnapshotText {
  byteLength: number;
  read(position: number, length: number): Uint8Array;
}

/** Text already in memory. */
export function textInMemory(bytes: Uint8Array): SnapshotText {
  return {
    byteLength: bytes.byteLength,
    read: (position, length) => bytes.subarray(position, position + length),
  };
}

/** A restored corpus, and what an engine needs to know of its passages without reading them. */
export interface RestoredCorpus {
  corpus: Corpus;
  /** Each article's passage count, in corpus order. */
  passageCounts: number[];
  /** Every passage's id, in corpus order, each made when first asked for. */
  passageIds: IdList;
}

/**
 * The corpus `encodeCorpusSnapshot` wrote, from its `index` bytes and its `text`. The articles and
 * their metadata are restored at once; an article's passages only when first read (`article.passages`),
 * from its block of text, whose hash is checked then: a block damaged since it was written throws a
 * `SnapshotFormatError` there, never gives other text. Throws `SnapshotFormatError` for bytes it did
 * not write.
 */
export function decodeCorpusSnapshot(indexBytes: Uint8Array, text: SnapshotText): RestoredCorpus {
  const buffer = Buffer.from(indexBytes.buffer, indexBytes.byteOffset, indexBytes.byteLength);
  const length = snapshotIndexLength(buffer);
  if (length === undefined || length > buffer.byteLength) {
    throw new SnapshotFormatError('corpus snapshot is truncated');
  }
  if (length < buffer.byteLength) throw new SnapshotFormatError('corpus snapshot is longer than its layout');
  const headLength = buffer.readUInt32LE(0);
  const numbersAt = 8 + headLength + ((4 - (headLength % 4)) % 4);
  let json: unknown;
  try {
    json = JSON.parse(buffer.toString('utf8', 8, 8 + headLength));
  } catch {
    throw new SnapshotFormatError('corpus snapshot head is not JSON');
  }
  const parsed = SNAPSHOT_HEAD.safeParse(json);
  if (!parsed.success) throw new SnapshotFormatError('corpus snapshot of another layout');
  const head = parsed.data;
  const numbers = new Uint32Array(
    buffer.buffer.slice(buffer.byteOffset + numbersAt, buffer.byteOffset + length),
  );
  const layoutError = () => new SnapshotFormatError('corpus snapshot text does not match its layout');
  const stored = head.articles;
  const articleCount = stored.id.length;
  if (STORED_FIELDS.some((field) => stored[field].length !== articleCount)) {
    throw new SnapshotFormatError('corpus snapshot of another layout');
  }

  // Where each article's passages and text start.
  const firstPassage = new Float64Array(articleCount);
  const textStart = new Float64Array(articleCount + 1);
  const passageCounts = new Array<number>(articleCount);
  const articleOf = new Uint32Array(numbers.length / NUMBERS_PER_PASSAGE);
  let n = 0;
  let at = 0;
  for (let a = 0; a < articleCount; a++) {
    const count = stored.passages[a]!;
    if (!Number.isSafeInteger(count) || count < 0 || n + count * NUMBERS_PER_PASSAGE > numbers.length) {
      throw layoutError();
    }
    firstPassage[a] = n / NUMBERS_PER_PASSAGE;
    textStart[a] = at;
    passageCounts[a] = count;
    articleOf.fill(a, n / NUMBERS_PER_PASSAGE, n / NUMBERS_PER_PASSAGE + count);
    for (let end = n + count * NUMBERS_PER_PASSAGE; n < end; n += NUMBERS_PER_PASSAGE) at += numbers[n + 2]!;
  }
  textStart[articleCount] = at;
  if (n !== numbers.length || at !== text.byteLength) throw layoutError();
  // A hundred thousand ids made at once would cost a cached call more than its question.
  const made = new Array<string>(articleOf.length);
  const passageIds: IdList = {
    length: articleOf.length,
    at(p: number): string | undefined {
      if (!Number.isInteger(p) || p < 0 || p >= articleOf.length) return undefined;
      const k = p * NUMBERS_PER_PASSAGE;
      made[p] ??= passageId(stored.id[articleOf[p]!]!, numbers[k]!, numbers[k + 1]!);
      return made[p];
    },
  };

  const blockOf = new Uint32Array(articleCount);
  const blockStart: number[] = [];
  let article = 0;
  for (let b = 0; b < head.blocks.length; b++) {
    const articles = head.blocks[b]![0];
    if (!Number.isSafeInteger(articles) || articles < 1 || article + articles > articleCount)
      throw layoutError();
    blockStart.push(textStart[article]!);
    blockOf.fill(b, article, article + articles);
    article += articles;
  }
  if (article !== articleCount) throw layoutError();
  blockStart.push(at);

  const checked = new Map<number, Uint8Array>();
  const blockBytes = (b: number): Uint8Array => {
    let bytes = checked.get(b);
    if (bytes === undefined) {
      const from = blockStart[b]!;
      bytes = text.read(from, blockStart[b + 1]! - from);
      if (bytes.byteLength !== blockStart[b + 1]! - from || blockHash(bytes) !== head.blocks[b]![1]) {
        throw new SnapshotFormatError('corpus snapshot text is damaged: a block does not match its hash');
      }
      checked.set(b, bytes);
    }
    return bytes;
  };

  // Each article's `passages` is this one getter until first read, then the passages decoded: an own
  // enumerable property, so that a copy (`{ ...article }`) or a comparison reads them as it would a
  // loaded article's. One getter for all (not one each): twenty thousand getters cost a tenth of a second.
  const positions = new Map<Article, number>();
  const decodeOnRead: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: Article): Passage[] {
      const passages = decodePassages(positions.get(this)!);
      Object.defineProperty(this, 'passages', {
        value: passages,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return passages;
    },
  };
  const articles = new Array<Article>(articleCount);
  for (let a = 0; a < articleCount; a++) {
    const file = head.files[stored.file[a]!];
    if (file === undefined) throw new SnapshotFormatError('corpus snapshot names a file it lacks');
    const line = stored.line[a]!;
    const article = {
      id: stored.id[a]!,
      source: line >= 0 ? `${file}:${line}` : file,
      title: stored.title[a]!,
      publisher: stored.publisher[a] ?? null,
      url: stored.url[a] ?? null,
      published: stored.published[a] ?? null,
      author: stored.author[a] ?? null,
      language: stored.language[a] ?? null,
    };
    Object.defineProperty(article, 'passages', decodeOnRead);
    articles[a] = article as Article;
    positions.set(article as Article, a);
  }

  const decodePassages = (a: number): Passage[] => {
    const b = blockOf[a]!;
    const block = blockBytes(b);
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    const { id } = articles[a]!;
    const count = passageCounts[a]!;
    const firstId = firstPassage[a]!;
    const passages = new Array<Passage>(count);
    let from = textStart[a]! - blockStart[b]!;
    for (let index = 0, k = firstId * NUMBERS_PER_PASSAGE; index < count; index++, k += NUMBERS_PER_PASSAGE) {
      const to = from + numbers[k + 2]!;
      passages[index] = {
        id: passageIds.at(firstId + index)!,
        articleId: id,
        paragraph: numbers[k]!,
        index,
        text: bytes.toString(head.text, from, to),
      };
      from = to;
    }
    return passages;
  };

  return { corpus: { articles, version: head.version, skipped: head.skipped }, passageCounts, passageIds };
}

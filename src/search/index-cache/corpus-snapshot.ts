import type { Article, Corpus, Passage } from '../../corpus/article.ts';

/** Bump when the layout below changes. */
const SNAPSHOT_LAYOUT = 3;

/**
 * An article's metadata as the snapshot keeps it. Its source is a file (an index into `files`) and a
 * line (`data.jsonl:12`), or -1 for a whole file; its passages' ids are derived from their numbers.
 */
type StoredArticle = [
  id: string,
  file: number,
  line: number,
  title: string,
  publisher: string | null,
  url: string | null,
  published: string | null,
  author: string | null,
  language: string | null,
  passages: number,
];

interface SnapshotHead {
  layout: number;
  version: string;
  skipped: readonly string[];
  files: string[];
  articles: StoredArticle[];
  /** How the passages' text is encoded: Latin-1 when every character fits in a byte. */
  text: TextEncoding;
}

type TextEncoding = 'latin1' | 'utf8';

/** Latin-1 decodes by copying bytes, several times faster than UTF-8 (a tenth of a second on Reuters). */
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/u;

/** Per passage, in the numbers section: its paragraph, its part of a split paragraph (0 for the first) and its length. */
const NUMBERS_PER_PASSAGE = 3;

const LONE_SURROGATE = /\p{Cs}/u;

/** A snapshot that cannot be what it claims. */
export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

/** `#12` for the first part of paragraph 12, `#12.2` for its second (`chunk.ts`). */
function passageId(articleId: string, paragraph: number, part: number): string {
  return part === 0 ? `${articleId}#${paragraph}` : `${articleId}#${paragraph}.${part + 1}`;
}

/**
 * A parsed corpus as bytes, so that a start can restore it instead of parsing its files again: the
 * articles' metadata as JSON (its length first), three numbers per passage, then every passage's text
 * in order as one Latin-1 or UTF-8 run, decoded in one go and sliced: far cheaper than parsing a JSON
 * string and an object per passage. Undefined for a corpus whose passage ids or sources are not of the loader's
 * forms, or whose text UTF-8 cannot hold: such a corpus is not kept (and is read from its files each time).
 */
export function encodeCorpusSnapshot(corpus: Corpus): Uint8Array[] | undefined {
  const files = new Map<string, number>();
  const numbers: number[] = [];
  const texts: string[] = [];
  const articles: StoredArticle[] = [];
  for (const article of corpus.articles) {
    for (const passage of article.passages) {
      const split = /\.(\d+)$/.exec(passage.id);
      const part = split ? Number(split[1]) - 1 : 0;
      if (passage.id !== passageId(article.id, passage.paragraph, part)) return undefined;
      // A lone surrogate (a JSON Lines `\ud800`) would not survive UTF-8: such a corpus is not kept.
      if (passage.articleId !== article.id || LONE_SURROGATE.test(passage.text)) return undefined;
      numbers.push(passage.paragraph, part, passage.text.length);
      texts.push(passage.text);
    }
    const lined = /^(.*):(\d+)$/.exec(article.source);
    const [file, line] =
      lined && `${lined[1]}:${Number(lined[2])}` === article.source
        ? [lined[1]!, Number(lined[2])]
        : [article.source, -1];
    if (!files.has(file)) files.set(file, files.size);
    const { id, title, publisher, url, published, author, language } = article;
    articles.push([
      id,
      files.get(file)!,
      line,
      title,
      publisher,
      url,
      published,
      author,
      language,
      article.passages.length,
    ]);
  }
  const text = texts.join('');
  const encoding: TextEncoding = BEYOND_LATIN1.test(text) ? 'utf8' : 'latin1';
  const head: SnapshotHead = {
    layout: SNAPSHOT_LAYOUT,
    version: corpus.version,
    skipped: corpus.skipped ?? [],
    files: [...files.keys()],
    articles,
    text: encoding,
  };
  const headBytes = Buffer.from(JSON.stringify(head));
  // Padded so that the numbers after it start on a 4-byte boundary.
  const lengths = new Uint32Array([headBytes.byteLength, numbers.length]);
  const padding = new Uint8Array((4 - (headBytes.byteLength % 4)) % 4);
  return [
    new Uint8Array(lengths.buffer),
    headBytes,
    padding,
    new Uint8Array(new Uint32Array(numbers).buffer),
    Buffer.from(text, encoding),
  ];
}

/** The corpus `encodeCorpusSnapshot` wrote. Throws `SnapshotFormatError` for bytes it did not write. */
export function decodeCorpusSnapshot(bytes: Uint8Array): Corpus {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const truncated = () => new SnapshotFormatError('corpus snapshot is truncated');
  if (buffer.byteLength < 8) throw truncated();
  const headLength = buffer.readUInt32LE(0);
  const numberCount = buffer.readUInt32LE(4);
  const numbersAt = 8 + headLength + ((4 - (headLength % 4)) % 4);
  const textAt = numbersAt + numberCount * 4;
  if (textAt > buffer.byteLength) throw truncated();
  let head: SnapshotHead;
  try {
    head = JSON.parse(buffer.toString('utf8', 8, 8 + headLength)) as SnapshotHead;
  } catch {
    throw new SnapshotFormatError('corpus snapshot head is not JSON');
  }
  if (
    head?.layout !== SNAPSHOT_LAYOUT ||
    !Array.isArray(head.articles) ||
    !Array.isArray(head.files) ||
    (head.text !== 'latin1' && head.text !== 'utf8')
  ) {
    throw new SnapshotFormatError('corpus snapshot of another layout');
  }
  const numbers = new Uint32Array(
    buffer.buffer.slice(buffer.byteOffset + numbersAt, buffer.byteOffset + textAt),
  );
  const text = buffer.toString(head.text, textAt);
  let at = 0;
  let n = 0;
  const articles = head.articles.map(
    ([id, file, line, title, publisher, url, published, author, language, count]): Article => {
      if (n + count * NUMBERS_PER_PASSAGE > numbers.length) throw truncated();
      const passages = new Array<Passage>(count);
      for (let index = 0; index < count; index++) {
        const paragraph = numbers[n]!;
        const length = numbers[n + 2]!;
        passages[index] = {
          id: passageId(id, paragraph, numbers[n + 1]!),
          articleId: id,
          paragraph,
          index,
          text: text.slice(at, at + length),
        };
        n += NUMBERS_PER_PASSAGE;
        at += length;
      }
      const name = head.files[file];
      if (name === undefined) throw new SnapshotFormatError('corpus snapshot names a file it lacks');
      const source = line >= 0 ? `${name}:${line}` : name;
      return { id, source, title, publisher, url, published, author, language, passages };
    },
  );
  if (at !== text.length || n !== numbers.length) {
    throw new SnapshotFormatError('corpus snapshot text does not match its layout');
  }
  return { articles, version: head.version, skipped: head.skipped };
}

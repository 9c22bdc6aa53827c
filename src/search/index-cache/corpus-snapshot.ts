import type { Article, Corpus, Passage } from '../../corpus/article.ts';

/** Bump when the layout below changes. */
const SNAPSHOT_LAYOUT = 1;

/** An article as the snapshot keeps it: its metadata, then per passage its id after `#`, paragraph and length. */
type StoredArticle = [
  id: string,
  source: string,
  title: string,
  publisher: string | null,
  url: string | null,
  published: string | null,
  author: string | null,
  language: string | null,
  passages: [suffix: string, paragraph: number, length: number][],
];

interface SnapshotHead {
  layout: number;
  version: string;
  skipped: readonly string[];
  articles: StoredArticle[];
}

/** A snapshot that cannot be what it claims. */
export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

/**
 * A parsed corpus as bytes, so that a start can restore it instead of parsing its files again: a
 * 4-byte length, the articles' metadata and passage layout as JSON, then every passage's text, in
 * order, as one UTF-8 run (decoded in one go and sliced, far cheaper than a JSON string per passage).
 */
export function encodeCorpusSnapshot(corpus: Corpus): Uint8Array[] {
  const texts: string[] = [];
  const articles = corpus.articles.map((article): StoredArticle => {
    const prefix = article.id.length + 1;
    const passages = article.passages.map((passage): [string, number, number] => {
      texts.push(passage.text);
      return [passage.id.slice(prefix), passage.paragraph, passage.text.length];
    });
    const { id, source, title, publisher, url, published, author, language } = article;
    return [id, source, title, publisher, url, published, author, language, passages];
  });
  const head: SnapshotHead = {
    layout: SNAPSHOT_LAYOUT,
    version: corpus.version,
    skipped: corpus.skipped ?? [],
    articles,
  };
  const headBytes = Buffer.from(JSON.stringify(head));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headBytes.byteLength);
  return [length, headBytes, Buffer.from(texts.join(''))];
}

/** The corpus `encodeCorpusSnapshot` wrote. Throws `SnapshotFormatError` for bytes it did not write. */
export function decodeCorpusSnapshot(bytes: Uint8Array): Corpus {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.byteLength < 4) throw new SnapshotFormatError('corpus snapshot is truncated');
  const headLength = buffer.readUInt32LE(0);
  if (4 + headLength > buffer.byteLength) throw new SnapshotFormatError('corpus snapshot is truncated');
  let head: SnapshotHead;
  try {
    head = JSON.parse(buffer.toString('utf8', 4, 4 + headLength)) as SnapshotHead;
  } catch {
    throw new SnapshotFormatError('corpus snapshot head is not JSON');
  }
  if (head?.layout !== SNAPSHOT_LAYOUT || !Array.isArray(head.articles)) {
    throw new SnapshotFormatError('corpus snapshot of another layout');
  }
  const text = buffer.toString('utf8', 4 + headLength);
  let at = 0;
  const articles = head.articles.map(
    ([id, source, title, publisher, url, published, author, language, stored]) => {
      const passages = stored.map(([suffix, paragraph, length], index): Passage => {
        const passage = {
          id: `${id}#${suffix}`,
          articleId: id,
          paragraph,
          index,
          text: text.slice(at, at + length),
        };
        at += length;
        return passage;
      });
      const article: Article = { id, source, title, publisher, url, published, author, language, passages };
      return article;
    },
  );
  if (at !== text.length) throw new SnapshotFormatError('corpus snapshot text does not match its layout');
  return { articles, version: head.version, skipped: head.skipped };
}

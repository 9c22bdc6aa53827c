import type { PostingStore, Postings } from './posting-store.ts';

/**
 * A posting store on disk: a magic number and layout version, then sections, each a byte length and
 * its bytes padded to four: the vocabulary (UTF-8, terms separated by NUL), then the typed arrays in
 * the order of `ARRAYS`. Loading takes views of the file's bytes (no parse, no copy) and checks that
 * every number is in range, so any file either loads as a store that cannot mislead the search, or is
 * refused with a reason.
 */
const MAGIC = 0x4e445053; // "NDPS"
const LAYOUT = 1;

/** The typed arrays of a store, in file order. */
const ARRAYS = [
  ['passageText.offsets', Uint32Array],
  ['passageText.docs', Uint32Array],
  ['passageText.tfs', Uint16Array],
  ['articleTitle.offsets', Uint32Array],
  ['articleTitle.docs', Uint32Array],
  ['articleTitle.tfs', Uint16Array],
  ['lengths.passageText', Uint32Array],
  ['lengths.passageContext', Uint32Array],
  ['lengths.articleText', Uint32Array],
  ['lengths.articleTitle', Uint32Array],
] as const;

type ArrayName = (typeof ARRAYS)[number][0];

function arraysOf(store: PostingStore): Record<ArrayName, Uint32Array | Uint16Array> {
  return {
    'passageText.offsets': store.passageText.offsets,
    'passageText.docs': store.passageText.docs,
    'passageText.tfs': store.passageText.tfs,
    'articleTitle.offsets': store.articleTitle.offsets,
    'articleTitle.docs': store.articleTitle.docs,
    'articleTitle.tfs': store.articleTitle.tfs,
    'lengths.passageText': store.lengths.passageText,
    'lengths.passageContext': store.lengths.passageContext,
    'lengths.articleText': store.lengths.articleText,
    'lengths.articleTitle': store.lengths.articleTitle,
  };
}

/** The store's bytes, as chunks to write one after the other. */
export function encodePostings(store: PostingStore): Uint8Array[] {
  const chunks: Uint8Array[] = [new Uint8Array(new Uint32Array([MAGIC, LAYOUT]).buffer)];
  const section = (bytes: Uint8Array) => {
    chunks.push(new Uint8Array(new Uint32Array([bytes.byteLength]).buffer), bytes);
    const padding = (4 - (bytes.byteLength % 4)) % 4;
    if (padding > 0) chunks.push(new Uint8Array(padding));
  };
  section(Buffer.from(store.terms.join('\u0000'), 'utf8'));
  const arrays = arraysOf(store);
  for (const [name] of ARRAYS) {
    const array = arrays[name];
    section(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  }
  return chunks;
}

/** Why stored postings were refused. */
export class PostingsFormatError extends Error {
  override name = 'PostingsFormatError';
}

/** A store as its file holds it: everything but what depends on the corpus's articles. */
export type StoredPostings = Omit<PostingStore, 'passageArticle'>;

/**
 * The store in `bytes`, for a corpus whose articles hold `passageCounts[a]` passages each. Throws
 * {@link PostingsFormatError} for anything but a store written by {@link encodePostings} for such a corpus.
 */
export function decodePostings(bytes: Uint8Array, passageCounts: readonly number[]): PostingStore {
  return fitPostings(readPostings(bytes), passageCounts);
}

/**
 * The store in `bytes`, checked on its own: every posting names a document the store has lengths for,
 * in ascending order. Needs no corpus, so a start does it while the corpus is still being read;
 * {@link fitPostings} then checks it against the corpus. Throws {@link PostingsFormatError}.
 */
export function readPostings(bytes: Uint8Array): StoredPostings {
  const fail = (reason: string): never => {
    throw new PostingsFormatError(reason);
  };
  // Views need their start aligned to the element size; a buffer from a pool may not be.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = (at: number, count: number) => {
    if (at + count * 4 > aligned.byteLength) fail('truncated');
    return new Uint32Array(aligned.buffer as ArrayBuffer, aligned.byteOffset + at, count);
  };
  const [magic, layout] = words(0, 2);
  if (magic !== MAGIC || layout !== LAYOUT) fail('not a posting store of this version');
  let at = 8;
  const section = (): Uint8Array => {
    const length = words(at, 1)[0]!;
    at += 4;
    if (length > aligned.byteLength - at) fail('truncated');
    const bytes = aligned.subarray(at, at + length);
    at += length + ((4 - (length % 4)) % 4);
    return bytes;
  };
  const termBytes = section();
  const terms =
    termBytes.byteLength === 0
      ? []
      : Buffer.from(termBytes.buffer, termBytes.byteOffset, termBytes.byteLength)
          .toString('utf8')
          .split('\u0000');
  for (let t = 1; t < terms.length; t++) {
    // Ascending, hence distinct: MiniSearch's radix tree is made from them in one pass.
    if (!(terms[t - 1]! < terms[t]!)) fail('the vocabulary is out of order');
  }
  const arrays = {} as Record<ArrayName, Uint32Array | Uint16Array>;
  for (const [name, Type] of ARRAYS) {
    const raw = section();
    if (raw.byteLength % Type.BYTES_PER_ELEMENT !== 0) fail(`${name} is not whole`);
    arrays[name] = new Type(
      raw.buffer as ArrayBuffer,
      raw.byteOffset,
      raw.byteLength / Type.BYTES_PER_ELEMENT,
    );
  }
  if (at !== aligned.byteLength) fail('bytes after the last section');

  const postings = (field: 'passageText' | 'articleTitle', documents: number): Postings => {
    const offsets = arrays[`${field}.offsets`] as Uint32Array;
    const docs = arrays[`${field}.docs`] as Uint32Array;
    const tfs = arrays[`${field}.tfs`] as Uint16Array;
    if (offsets.length !== terms.length + 1 || offsets[0] !== 0 || offsets.at(-1) !== docs.length) {
      fail(`${field} does not match the vocabulary`);
    }
    if (tfs.length !== docs.length) fail(`${field} has frequencies for other postings`);
    for (let t = 0; t < terms.length; t++) {
      const from = offsets[t]!;
      const to = offsets[t + 1]!;
      if (to < from || to > docs.length) fail(`${field} is out of order`);
      for (let k = from; k < to; k++) {
        // Ascending and in range: the search looks documents up by halving.
        if (docs[k]! >= documents || (k > from && docs[k]! <= docs[k - 1]!)) fail(`${field} is out of order`);
      }
    }
    return { offsets, docs, tfs };
  };
  const passages = arrays['lengths.passageText'].length;
  const articles = arrays['lengths.articleTitle'].length;
  const lengths = (name: ArrayName, count: number) => {
    if (arrays[name].length !== count) fail(`${name} is for another corpus`);
    return arrays[name] as Uint32Array;
  };
  return {
    terms,
    passageText: postings('passageText', passages),
    articleTitle: postings('articleTitle', articles),
    lengths: {
      passageText: lengths('lengths.passageText', passages),
      passageContext: lengths('lengths.passageContext', passages),
      articleText: lengths('lengths.articleText', articles),
      articleTitle: lengths('lengths.articleTitle', articles),
    },
  };
}

/**
 * `stored` as the store of a corpus whose articles hold `passageCounts[a]` passages each. Throws
 * {@link PostingsFormatError} when it has lengths for other documents than that corpus's.
 */
export function fitPostings(stored: StoredPostings, passageCounts: readonly number[]): PostingStore {
  const passageArticle = new Uint32Array(passageCounts.reduce((sum, count) => sum + count, 0));
  let first = 0;
  for (const [article, count] of passageCounts.entries()) {
    passageArticle.fill(article, first, first + count);
    first += count;
  }
  const { lengths } = stored;
  for (const [name, count] of [
    ['passageText', passageArticle.length],
    ['passageContext', passageArticle.length],
    ['articleText', passageCounts.length],
    ['articleTitle', passageCounts.length],
  ] as const) {
    if (lengths[name].length !== count)
      throw new PostingsFormatError(`lengths.${name} is for another corpus`);
  }
  return { ...stored, passageArticle };
}

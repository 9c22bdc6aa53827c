import { createHash } from 'node:crypto';
import { WordVectors } from './word-vectors.ts';

/** Bump when the layout below changes: an older file is then rebuilt, not misread. */
export const WORD_VECTORS_FORMAT = 1;

/**
 * The first line of a word-vectors file; the body follows: the words with vectors and then the words
 * the source lacks (each UTF-8, one per line), padding to a multiple of 4 bytes, one uint32 passage count
 * per word, then each word's float32 vector, little-endian.
 */
interface Header {
  format: number;
  /** What the vectors were converted from: the package and its version. */
  source: string;
  dimensions: number;
  corpusVersion: string;
  passages: number;
  words: number;
  wordBytes: number;
  lacking: number;
  lackingBytes: number;
  /** sha256 of the body, hex. */
  sha256: string;
}

/** Why a file was not used: it is rebuilt then. */
export class StaleWordVectors extends Error {
  override name = 'StaleWordVectors';
}

export function encodeWordVectors(vectors: WordVectors, source: string): Buffer {
  const words = Buffer.from(vectors.words.join('\n'), 'utf8');
  const lacking = Buffer.from(vectors.lacking.join('\n'), 'utf8');
  const textBytes = words.byteLength + 1 + lacking.byteLength;
  const padding = (4 - (textBytes % 4)) % 4;
  const counts = Buffer.from(vectors.counts.buffer, vectors.counts.byteOffset, vectors.counts.byteLength);
  const numbers = Buffer.from(vectors.vectors.buffer, vectors.vectors.byteOffset, vectors.vectors.byteLength);
  const body = Buffer.concat([words, Buffer.from('\n'), lacking, Buffer.alloc(padding), counts, numbers]);
  const header: Header = {
    format: WORD_VECTORS_FORMAT,
    source,
    dimensions: vectors.dimensions,
    corpusVersion: vectors.corpusVersion,
    passages: vectors.passages,
    words: vectors.words.length,
    wordBytes: words.byteLength,
    lacking: vectors.lacking.length,
    lackingBytes: lacking.byteLength,
    sha256: createHash('sha256').update(body).digest('hex'),
  };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]);
}

/**
 * Reads a file `encodeWordVectors` wrote from `source`; throws `StaleWordVectors` for one of another
 * format or source, or whose body does not match its checksum (damaged, or cut short).
 */
export function decodeWordVectors(bytes: Buffer, source: string): WordVectors {
  const newline = bytes.indexOf(0x0a);
  let header: Header;
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Header;
  } catch {
    throw new StaleWordVectors('no header');
  }
  if (header.format !== WORD_VECTORS_FORMAT) throw new StaleWordVectors(`format ${header.format}`);
  if (header.source !== source) throw new StaleWordVectors(`made from ${header.source}, not ${source}`);
  const body = bytes.subarray(newline + 1);
  if (createHash('sha256').update(body).digest('hex') !== header.sha256) {
    throw new StaleWordVectors('checksum does not match');
  }
  const split = (from: number, length: number, count: number) =>
    count === 0
      ? []
      : body
          .subarray(from, from + length)
          .toString('utf8')
          .split('\n');
  const words = split(0, header.wordBytes, header.words);
  const lacking = split(header.wordBytes + 1, header.lackingBytes, header.lacking);
  const textBytes = header.wordBytes + 1 + header.lackingBytes;
  const countsAt = textBytes + ((4 - (textBytes % 4)) % 4);
  const vectorsAt = countsAt + header.words * 4;
  const end = vectorsAt + header.words * header.dimensions * 4;
  if (words.length !== header.words || lacking.length !== header.lacking || end !== body.byteLength) {
    throw new StaleWordVectors('sizes do not match the header');
  }
  // Copied out of the file's bytes: typed arrays need their own alignment.
  const df = new Uint32Array(header.words);
  Buffer.from(df.buffer).set(body.subarray(countsAt, vectorsAt));
  const vectors = new Float32Array(header.words * header.dimensions);
  Buffer.from(vectors.buffer).set(body.subarray(vectorsAt, end));
  return new WordVectors({
    dimensions: header.dimensions,
    passages: header.passages,
    corpusVersion: header.corpusVersion,
    words,
    lacking,
    vectors,
    df,
  });
}

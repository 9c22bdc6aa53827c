/**
 * Checks a quotation as a member wrote it against the coverage: the passage with the closest wording
 * (candidates from the search index, then a word alignment with each), a verdict, a word diff, the
 * speaker the paragraph names, and the earliest dated article carrying the same words.
 */
import { type Article, articleMeta } from '../corpus/article.ts';
import type { Answer, AnswerOptions } from '../search/answer.ts';
import type { Located } from '../search/corpus-lookup.ts';
import { type AlignOp, align } from './align.ts';
import { speakerOf } from './speaker.ts';
import { type Verdict, verdictOf } from './verdict.ts';
import { type Word, widen, wordsOf } from './words.ts';

/** Quotes are checked up to this many characters; longer text is cut at a sentence end before it. */
export const MAX_QUOTE_CHARS = 1000;
/** Passages the index is asked for; each brings the other outlets' copies of the same report too. */
const CANDIDATES = 10;

/** What the quote check needs of a search engine (`Engine` and `WorkerEngine` have it). */
export interface QuoteSource {
  answerAsync(question: string, options?: AnswerOptions): Promise<Answer>;
  passage(citation: string): Located | undefined;
}

/** One run of the word diff: words both versions share, or only the member's (`added`) or only the passage's (`dropped`). */
export interface DiffPart {
  op: 'same' | 'added' | 'dropped';
  text: string;
}

/** An article that carries the words, as cited. */
export interface CitedArticle {
  citation: string;
  article: Pick<Article, 'id' | 'title' | 'publisher' | 'published' | 'url' | 'author' | 'language'>;
}

export interface QuoteCheck {
  /** The quotation as checked (whitespace collapsed, cut to `MAX_QUOTE_CHARS`). */
  quote: string;
  verdict: Verdict;
  /** The passage with the closest wording; `null` for `not-found`. */
  source: (CitedArticle & { passage: string }) | null;
  /** The member's version against the passage's words, in reading order; empty for `not-found`. */
  diff: DiffPart[];
  /** Who the paragraph says is speaking, if it names someone. */
  speaker: string | null;
  /** The earliest dated article carrying the same words (perhaps the source itself), if any is dated. */
  earliest: (CitedArticle & { published: string }) | null;
}

/** Checks a quotation against the whole corpus behind `engine`. */
export async function checkQuote(engine: QuoteSource, text: string): Promise<QuoteCheck> {
  const quote = cleanQuote(text);
  const answer = await engine.answerAsync(searchText(quote), { limit: CANDIDATES });
  const seen = new Set<string>();
  const candidates: Located[] = [];
  for (const citation of answer.results.flatMap((result) => [result.citation, ...result.alsoReportedBy])) {
    const located = seen.has(citation) ? undefined : engine.passage(citation);
    seen.add(citation);
    if (located) candidates.push(located);
  }
  return checkQuoteAgainst(quote, candidates);
}

/**
 * The quote's content words, as the index is asked for them. A quotation is not a question: asked
 * whole, "how much the UK had provided" would be read as asking for a sum, and a passage whose sum is
 * already in the quote would be passed over. Function words (which include every question word) are
 * not indexed anyway, and "cost", the one content word the engine reads as asking for a figure, is
 * given as "costs", which the index stems the same.
 */
function searchText(quote: string): string {
  return wordsOf(quote)
    .filter((word) => word.kind !== 'function')
    .map((word) => (word.norm === 'cost' ? 'costs' : word.raw))
    .join(' ');
}

/** Checks a quotation against the given passages only (the candidates the index found). */
export function checkQuoteAgainst(text: string, candidates: readonly Located[]): QuoteCheck {
  const quote = cleanQuote(text);
  const quoteWords = wordsOf(quote);
  const none: QuoteCheck = {
    quote,
    verdict: 'not-found',
    source: null,
    diff: [],
    speaker: null,
    earliest: null,
  };
  if (quoteWords.length === 0) return none;
  const aligned = candidates
    .map((located, rank) => {
      const words = wordsOf(located.passage.text);
      return { located, words, rank, ...align(quoteWords, words) };
    })
    .sort((a, b) => a.cost - b.cost || byDate(a.located.article, b.located.article) || a.rank - b.rank);
  const best = aligned[0];
  if (!best) return none;
  const verdict = verdictOf(quoteWords, best.ops);
  if (verdict === 'not-found') return none;

  const { article, passage } = best.located;
  const span = coveredSpan(best.ops);
  const spanWords = best.words.filter((word) => word.start >= span.start && word.end <= span.end);
  const carriers = aligned.filter(
    (candidate) =>
      candidate === best ||
      ['verbatim', 'close'].includes(verdictOf(spanWords, align(spanWords, candidate.words).ops)),
  );
  const dated = carriers
    .filter((candidate) => candidate.located.article.published !== null)
    .sort((a, b) => byDate(a.located.article, b.located.article))[0];
  return {
    quote,
    verdict,
    source: { citation: passage.id, article: metaOf(article), passage: passage.text },
    diff: diffOf(best.ops, quote, passage.text),
    speaker: speakerOf(passage.text, span.start),
    earliest: dated
      ? {
          citation: dated.located.passage.id,
          article: metaOf(dated.located.article),
          published: dated.located.article.published!,
        }
      : null,
  };
}

/** Whitespace collapsed, surrounding quotation marks removed, cut at a sentence end within the limit. */
export function cleanQuote(text: string): string {
  let quote = text.replace(/\s+/g, ' ').trim();
  quote = quote.replace(/^["“”„'‘’«»]+\s*/, '').replace(/\s*["“”„'‘’«»]+$/, '');
  if (quote.length <= MAX_QUOTE_CHARS) return quote;
  const cut = quote.slice(0, MAX_QUOTE_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  return end > MAX_QUOTE_CHARS / 2 ? cut.slice(0, end + 1) : cut.slice(0, cut.lastIndexOf(' '));
}

/** Character range of the passage the quote covers, from its first to its last aligned word. */
function coveredSpan(ops: readonly AlignOp[]): { start: number; end: number } {
  const words = ops.flatMap((op) => (op.op === 'added' ? [] : [op.passage]));
  return { start: words[0]?.start ?? 0, end: words.at(-1)?.end ?? 0 };
}

/**
 * The alignment as runs of shared, added and dropped words, each run a verbatim slice of the text it
 * comes from, widened to whitespace so the signs and punctuation attached to its words ("$18,000",
 * "weeks,") stay with them. A word in another form shows as dropped and added.
 */
export function diffOf(ops: readonly AlignOp[], quote: string, passage: string): DiffPart[] {
  const pieces: { op: DiffPart['op']; word: Word; from: string }[] = [];
  for (const op of ops) {
    if (op.op === 'same') pieces.push({ op: 'same', word: op.passage, from: passage });
    else if (op.op === 'added') pieces.push({ op: 'added', word: op.quote, from: quote });
    else if (op.op === 'dropped') pieces.push({ op: 'dropped', word: op.passage, from: passage });
    else {
      pieces.push({ op: 'dropped', word: op.passage, from: passage });
      pieces.push({ op: 'added', word: op.quote, from: quote });
    }
  }
  // Changed words come out as dropped, added, dropped, added: each stretch of differences becomes one
  // dropped run and one added run, which reads as "this was replaced by that". Words of one run are
  // next to each other in the text they come from.
  const parts: DiffPart[] = [];
  const run = (op: DiffPart['op'], words: typeof pieces) => {
    if (words.length === 0) return;
    const { from } = words[0]!;
    parts.push({ op, text: widen(from, words[0]!.word.start, words.at(-1)!.word.end) });
  };
  let i = 0;
  while (i < pieces.length) {
    let j = i + 1;
    const same = pieces[i]!.op === 'same';
    while (j < pieces.length && (pieces[j]!.op === 'same') === same) j++;
    const stretch = pieces.slice(i, j);
    if (same) run('same', stretch);
    else
      for (const op of ['dropped', 'added'] as const)
        run(
          op,
          stretch.filter((piece) => piece.op === op),
        );
    i = j;
  }
  return parts;
}

function metaOf(article: Article): CitedArticle['article'] {
  return { id: article.id, ...articleMeta(article) };
}

/** Dated articles first, earliest first (ISO dates sort as text). */
function byDate(a: Article, b: Article): number {
  if (a.published === b.published) return 0;
  if (a.published === null) return 1;
  if (b.published === null) return -1;
  return a.published < b.published ? -1 : 1;
}

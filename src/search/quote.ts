import { splitSentences } from '../text/sentences.ts';
import { analyze, tokenize } from './analyze.ts';
import type { Highlight } from './answer.ts';
import { type AnswerType, answeringEntities } from './answer-type.ts';

export interface Quote {
  /** Verbatim slice of the passage. */
  text: string;
  highlights: Highlight[];
}

/** A quote this short reads better with the sentence after it. */
const SHORT_SENTENCE = 90;
/** ...as long as the two together stay a quote, not a paragraph. */
const MAX_TWO_SENTENCES = 360;

/**
 * Picks the sentence (or two) of a passage that best answer the question: the one holding the most
 * weight of question terms, preferring one that mentions the kind of fact asked for. `weights` maps
 * each indexed term that matched the question to its weight (its rarity in the corpus).
 */
export function pickQuote(
  passage: string,
  weights: ReadonlyMap<string, number>,
  type: AnswerType,
  isKnown?: (mention: string) => boolean,
): Quote {
  const sentences = splitSentences(passage);
  if (sentences.length <= 1)
    return { text: passage, highlights: highlight(passage, 0, passage.length, weights) };
  // Where the asked-for fact and the question's words meet: a sentence holding an answering entity
  // counts its question words half as much again.
  const entities = answeringEntities(passage, type, isKnown);
  const scores = sentences.map((sentence) => {
    const score = sentenceWeight(sentence.text, weights);
    const answers = entities.some((e) => e.start >= sentence.start && e.end <= sentence.end);
    return answers ? score * 1.5 : score;
  });
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  const first = sentences[best]!;
  let end = first.end;
  const next = sentences[best + 1];
  if (
    next &&
    (first.text.length < SHORT_SENTENCE || scores[best + 1]! > 0) &&
    next.end - first.start <= MAX_TWO_SENTENCES
  ) {
    end = next.end;
  }
  return { text: passage.slice(first.start, end), highlights: highlight(passage, first.start, end, weights) };
}

/** Spans of `passage[start, end)` whose words analyse to a matched term, relative to `start`. */
function highlight(
  passage: string,
  start: number,
  end: number,
  weights: ReadonlyMap<string, number>,
): Highlight[] {
  const spans: Highlight[] = [];
  const quote = passage.slice(start, end);
  for (const token of tokenize(quote)) {
    // A sign ("£") stands for a word ("pounds") but highlighting it alone would mark punctuation.
    if (!weights.has(token.term) || !/[\p{L}\p{N}]/u.test(quote[token.start]!)) continue;
    const last = spans.at(-1);
    if (last && last.start === token.start) continue; // one word can yield several terms
    spans.push({ start: token.start, end: token.end });
  }
  return spans;
}

/** The weight of the distinct matched terms in a sentence. */
export function sentenceWeight(sentence: string, weights: ReadonlyMap<string, number>): number {
  let score = 0;
  const seen = new Set<string>();
  // The terms alone, as `tokenize` gives them in order: no object made for each word.
  for (const term of analyze(sentence)) {
    const weight = weights.get(term);
    if (weight !== undefined && !seen.has(term)) {
      score += weight;
      seen.add(term);
    }
  }
  return score;
}

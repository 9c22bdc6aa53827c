/**
 * The quote-check test set, built from real articles: each sentence taken verbatim, then with a function
 * word changed (expected `close`), with a number changed, a negation added, a name swapped or a clause
 * dropped (expected `altered`), with two or three of those at once (`compound`: a clause reworded and a
 * figure changed together, as members misquote; expected `altered`); and sentences from articles outside
 * the corpus (expected `not-found`).
 * Deterministic for a seed, so the eval and the CI test see the same cases every run.
 */
import type { Article } from '../../src/corpus/article.ts';
import type { Verdict } from '../../src/factcheck/verdict.ts';
import { splitSentences } from '../../src/text/sentences.ts';
import { seededRandom, seededShuffle } from './shuffle.ts';

export type QuoteCaseKind =
  | 'verbatim'
  | 'function-word'
  | 'number'
  | 'negation'
  | 'name'
  | 'clause'
  | 'compound'
  | 'nowhere';

export interface QuoteCase {
  kind: QuoteCaseKind;
  expected: Verdict;
  /** The quotation as a member would write it. */
  text: string;
  /** The sentence it was made from, and where (none for `nowhere`). */
  original: string;
  citation: string | null;
}

const EXPECTED: Record<QuoteCaseKind, Verdict> = {
  verbatim: 'verbatim',
  'function-word': 'close',
  number: 'altered',
  negation: 'altered',
  name: 'altered',
  clause: 'altered',
  compound: 'altered',
  nowhere: 'not-found',
};

/** One function word for another: the sentence says nearly the same. */
const FUNCTION_SWAPS: Record<string, string> = {
  the: 'a',
  a: 'the',
  is: 'was',
  was: 'is',
  are: 'were',
  were: 'are',
  has: 'had',
  had: 'has',
  in: 'at',
  at: 'in',
  on: 'in',
  that: 'which',
  this: 'that',
  these: 'those',
  said: 'says',
  says: 'said',
};
const AUXILIARIES =
  /\b(is|was|are|were|will|would|could|can|has|have|had|should|must|did|does|do)\s+(?!not\b|n't)(\p{Ll}+)/u;

type Maker = (sentence: string, random: () => number, names: readonly string[]) => string | null;

/** The single edits a compound misquote is made of, tried in an order fixed by the seed. */
const COMPOUND_PARTS: readonly Exclude<
  QuoteCaseKind,
  'nowhere' | 'verbatim' | 'function-word' | 'compound'
>[] = ['number', 'clause', 'name', 'negation'];

const MAKERS: Record<Exclude<QuoteCaseKind, 'nowhere'>, Maker> = {
  // Case, punctuation and quotation marks do not count against a quote.
  verbatim: (sentence, random) => {
    const styles = [
      (text: string) => text,
      (text: string) => text.toLowerCase(),
      (text: string) => text.replace(/[.!?]+$/, '').replace(/"/g, '“'),
      (text: string) => text.replace(/,/g, ''),
    ];
    return styles[Math.floor(random() * styles.length)]!(sentence);
  },
  'function-word': (sentence, random) => {
    const spots = [...sentence.matchAll(/(?<=\s)([a-z]+)(?=\s)/g)].filter(
      (match) => FUNCTION_SWAPS[match[1]!] !== undefined,
    );
    const spot = spots[Math.floor(random() * spots.length)];
    if (!spot) return null;
    return replaceAt(sentence, spot.index, spot[1]!, FUNCTION_SWAPS[spot[1]!]!);
  },
  number: (sentence, random) => {
    const spots = [...sentence.matchAll(/\d[\d,.]*/g)];
    const spot = spots[Math.floor(random() * spots.length)];
    if (!spot) return null;
    const first = Number(spot[0][0]);
    const changed = String(((first + 1 + Math.floor(random() * 8)) % 9) + 1) + spot[0].slice(1);
    return changed === spot[0] ? null : replaceAt(sentence, spot.index, spot[0], changed);
  },
  negation: (sentence) => {
    const spot = AUXILIARIES.exec(sentence);
    if (!spot) return null;
    const at = spot.index + spot[1]!.length;
    return `${sentence.slice(0, at)} not${sentence.slice(at)}`;
  },
  name: (sentence, random, names) => {
    const spots = [...sentence.matchAll(/(?<=[a-z,]\s)(\p{Lu}\p{Ll}{2,})\b/gu)].filter(
      (match) =>
        !/^(The|This|That|But|And|He|She|They|It|We|In|On|At|For|His|Her|Their|A|An|I)$/.test(match[1]!),
    );
    const spot = spots[Math.floor(random() * spots.length)];
    if (!spot) return null;
    const others = names.filter((name) => !sentence.includes(name));
    const other = others[Math.floor(random() * others.length)];
    return other ? replaceAt(sentence, spot.index, spot[1]!, other) : null;
  },
  // "A, C, B" quoted as "A, B": an inner clause of at least three words left out, between parts of at
  // least three words ("But, neither..." from "But, to her dismay, neither..." is the passage's words).
  clause: (sentence) => {
    const commas = [...sentence.matchAll(/,\s/g)].map((match) => match.index);
    for (let i = 0; i + 1 < commas.length; i++) {
      const dropped = sentence.slice(commas[i]! + 1, commas[i + 1]!);
      const rest = sentence.slice(commas[i + 1]! + 1);
      const before = sentence.slice(0, commas[i]!);
      if ([before, dropped, rest].every((part) => part.trim().split(/\s+/).length >= 3))
        return sentence.slice(0, commas[i]!) + sentence.slice(commas[i + 1]!);
    }
    return null;
  },
  // Two or three of the edits above at once (a clause left out and a figure changed, say): each alone
  // keeps most of the sentence's words, together they can leave fewer than the share that finds it.
  compound: (sentence, random, names) => {
    const wanted = 2 + Math.floor(random() * 2);
    let quote = sentence;
    let edits = 0;
    for (const part of seededShuffleOf(COMPOUND_PARTS, random)) {
      const next = MAKERS[part](quote, random, names);
      if (next === null || next === quote) continue;
      quote = next;
      if (++edits === wanted) break;
    }
    return edits >= 2 ? quote : null;
  },
};

/** `items` in a random order drawn from `random`. */
function seededShuffleOf<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function replaceAt(text: string, at: number, old: string, replacement: string): string {
  return text.slice(0, at) + replacement + text.slice(at + old.length);
}

/** Sentences worth quoting: 8 to 45 words, one per passage, in an order fixed by the seed. */
export function quotableSentences(
  articles: readonly Article[],
  seed: number,
): { text: string; citation: string }[] {
  const out: { text: string; citation: string }[] = [];
  const passages = seededShuffle(
    articles.flatMap((article) => article.passages),
    seed,
  );
  const random = seededRandom(seed);
  for (const passage of passages) {
    const sentences = splitSentences(passage.text).filter((sentence) => {
      const words = sentence.text.split(/\s+/).length;
      return words >= 8 && words <= 45;
    });
    const sentence = sentences[Math.floor(random() * sentences.length)];
    if (sentence) out.push({ text: sentence.text.trim(), citation: passage.id });
  }
  return out;
}

/**
 * Up to `perKind` cases of each kind made from the corpus's sentences (a sentence serves every kind it
 * can), and one `nowhere` case for each of `elsewhere` (sentences of articles not in the corpus).
 */
export function quoteCases(
  articles: readonly Article[],
  options: { seed: number; perKind: number; elsewhere?: readonly string[] },
): QuoteCase[] {
  const random = seededRandom(options.seed);
  const sentences = quotableSentences(articles, options.seed);
  const names = [
    ...new Set(sentences.flatMap(({ text }) => text.match(/(?<=[a-z,]\s)\p{Lu}\p{Ll}{3,}\b/gu) ?? [])),
  ].slice(0, 2000);
  const cases: QuoteCase[] = [];
  for (const [kind, make] of Object.entries(MAKERS) as [Exclude<QuoteCaseKind, 'nowhere'>, Maker][]) {
    let made = 0;
    for (const { text, citation } of sentences) {
      if (made >= options.perKind) break;
      const quote = make(text, random, names);
      if (quote === null || (kind !== 'verbatim' && quote === text)) continue;
      cases.push({ kind, expected: EXPECTED[kind], text: quote, original: text, citation });
      made++;
    }
  }
  for (const text of options.elsewhere ?? []) {
    cases.push({ kind: 'nowhere', expected: 'not-found', text, original: text, citation: null });
  }
  return cases;
}

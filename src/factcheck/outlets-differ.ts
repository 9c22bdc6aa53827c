/**
 * Where outlets reporting one fact disagree: the passages an answer groups as the same report
 * (`alsoReportedBy`) are aligned word by word with the quote shown, and a number, sum, date or name
 * that one outlet gives differently is reported with every outlet's value and citation
 * ("18,000 (The Telegraph) · 20,000 (BBC)") instead of being hidden behind the first.
 */
import type { Article } from '../corpus/article.ts';
import type { AnswerResult } from '../search/answer.ts';
import type { Located } from '../search/corpus-lookup.ts';
import { type AlignOp, align } from './align.ts';
import { type Word, widen, wordsOf } from './words.ts';

export type DisagreementKind = 'number' | 'date' | 'name';

/** One outlet's version of the disputed value. */
export interface OutletValue {
  value: string;
  /** The outlet as readers know it: its publisher, else the headline. */
  outlet: string;
  citation: string;
}

/** A value the grouped reports do not agree on, with each outlet's version, the answer's own first. */
export interface Disagreement {
  kind: DisagreementKind;
  values: OutletValue[];
}

const DATE_WORDS =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|today|tomorrow)$/;

// Both words of one kind: two unrelated passages aligned word by word pair "for" with "January" and
// "President" with "half"; a figure, a day or a name given differently is one put in another's place.
function kindOf(a: Word, b: Word): DisagreementKind | null {
  if (DATE_WORDS.test(a.norm) && DATE_WORDS.test(b.norm)) return 'date';
  if (a.kind === 'number' && b.kind === 'number') return 'number';
  if (a.capitalised && b.capitalised && a.kind === 'content' && b.kind === 'content') {
    return sameLetters(a.norm, b.norm) ? null : 'name';
  }
  return null;
}

/** "Freight" / "Frieght": a misspelling, not another name. */
function sameLetters(a: string, b: string): boolean {
  return [...a].sort().join('') === [...b].sort().join('');
}

/**
 * The quote's words that `ops` changed for a value of another outlet: each in a run of changed words of
 * one kind between words the two texts share (or the quote's edge). A change among other changes is two
 * different texts, not one report giving one value differently.
 */
function substitutions(quote: readonly Word[], ops: readonly AlignOp[]): Map<number, DisagreementKind> {
  const op = new Map<number, AlignOp>();
  for (const each of ops) if (each.op !== 'dropped') op.set(quote.indexOf(each.quote), each);
  const changedKind = (at: number): DisagreementKind | null => {
    const each = op.get(at);
    return each?.op === 'changed' ? kindOf(each.quote, each.passage) : null;
  };
  const agrees = (at: number) =>
    at < 0 || at >= quote.length || ['same', 'form'].includes(op.get(at)?.op ?? '');
  const found = new Map<number, DisagreementKind>();
  for (let from = 0; from < quote.length; from++) {
    const kind = changedKind(from);
    if (!kind) continue;
    let to = from;
    while (changedKind(to + 1) === kind) to++;
    if (agrees(from - 1) && agrees(to + 1)) for (let at = from; at <= to; at++) found.set(at, kind);
    from = to;
  }
  return found;
}

/** What of `passages` the check needs: a way to find a cited passage. */
export interface PassageSource {
  passage(citation: string): Located | undefined;
}

/** The disagreements among an answer result and the other outlets' copies grouped with it. */
export function disagreementsOf(
  result: Pick<AnswerResult, 'citation' | 'quote' | 'alsoReportedBy' | 'publisher' | 'title'>,
  source: PassageSource,
): Disagreement[] {
  if (result.alsoReportedBy.length === 0) return [];
  const quote = wordsOf(result.quote);
  // Words of the quote some outlet gives otherwise, and what each outlet has in their place.
  const disputed = new Map<number, DisagreementKind>();
  const readings: { located: Located; byQuoteWord: Map<number, Word> }[] = [];
  for (const citation of result.alsoReportedBy) {
    const located = source.passage(citation);
    if (!located) continue;
    const { ops } = align(quote, wordsOf(located.passage.text));
    const changed = substitutions(quote, ops);
    for (const [at, kind] of changed) if (!disputed.has(at)) disputed.set(at, kind);
    // An outlet's value is a word it shares with the quote or one it gives in its place, never a word
    // the alignment merely paired with it.
    const byQuoteWord = new Map<number, Word>();
    for (const op of ops) {
      if (op.op === 'added' || op.op === 'dropped') continue;
      const at = quote.indexOf(op.quote);
      if (op.op !== 'changed' || changed.has(at)) byQuoteWord.set(at, op.passage);
    }
    readings.push({ located, byQuoteWord });
  }
  // Neighbouring disputed words of one kind are one value ("Natacha Bouchart" / "Xavier Bertrand").
  const runs: { from: number; to: number; kind: DisagreementKind }[] = [];
  for (const at of [...disputed.keys()].sort((x, y) => x - y)) {
    const last = runs.at(-1);
    if (last && last.to === at - 1 && last.kind === disputed.get(at)) last.to = at;
    else runs.push({ from: at, to: at, kind: disputed.get(at)! });
  }
  return runs.map(({ from, to, kind }) => {
    const values: OutletValue[] = [
      {
        value: valueText(result.quote, quote[from]!, quote[to]!),
        outlet: outletOf(result),
        citation: result.citation,
      },
    ];
    for (const { located, byQuoteWord } of readings) {
      const first = byQuoteWord.get(from);
      const last = byQuoteWord.get(to);
      if (!first || !last) continue;
      values.push({
        value: valueText(located.passage.text, first, last),
        outlet: outletOf(located.article),
        citation: located.passage.id,
      });
    }
    return { kind, values };
  });
}

/** Disagreements for every result of an answer that has any, by the result's citation. */
export function disagreementsIn(
  results: readonly Pick<AnswerResult, 'citation' | 'quote' | 'alsoReportedBy' | 'publisher' | 'title'>[],
  source: PassageSource,
): Map<string, Disagreement[]> {
  const out = new Map<string, Disagreement[]>();
  for (const result of results) {
    const found = disagreementsOf(result, source);
    if (found.length > 0) out.set(result.citation, found);
  }
  return out;
}

/** The value as written, with its currency sign and without trailing punctuation: "$18,000", "Tuesday". */
function valueText(text: string, first: Word, last: Word): string {
  return widen(text, first.start, last.end).replace(/^[("“‘']+|[)"”’',.;:!?]+$/g, '');
}

function outletOf(article: Pick<Article, 'publisher' | 'title'>): string {
  return article.publisher ?? article.title;
}

import type { Token } from './analyze.ts';
import { type AnswerType, answerMentions } from './answer-type.ts';

/** How many words apart a question word and the asked-for fact may stand and still read as one phrase. */
const REACH = 3;

/**
 * The asked-for fact said of the question's own words: the rarity-weighted share of the question's
 * terms that stand within a few words of a mention of the kind of fact asked for ("Teteghem, near
 * Dunkirk" for "whereabouts is teteghem", "Madeleine Darneux, 39" for "how old is Madeleine Darneux"),
 * for a place, a number, a sum or a date.
 * A sentence holding both (`answerMeets`) may be about something else beside them; an apposition is not.
 */
export function answerBeside(
  text: string,
  tokens: readonly Token[],
  matchedTerms: ReadonlyMap<string, number>,
  totalWeight: number,
  type: AnswerType,
  isKnown: (mention: string) => boolean,
): number {
  // A name beside the question's words is mostly the one it already names ("the mayor of Teteghem,
  // Franck Dhersin" for "who threatened the mayor of Teteghem?"), not the one it asks for.
  if (type === 'other' || type === 'person' || totalWeight <= 0) return 0;
  const mentions = answerMentions(text, type, isKnown);
  if (mentions.length === 0) return 0;
  // Each mention's span in word positions: the positions of the first and last token inside it (a
  // mention of stop words only, "in the", has none and is measured from where it stands).
  const spans = mentions.map(({ start, end }) => {
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    let before = -1;
    for (const token of tokens) {
      if (token.end <= start) before = token.position;
      else if (token.start < end) {
        first = Math.min(first, token.position);
        last = Math.max(last, token.position);
      }
    }
    return Number.isFinite(first) ? { first, last } : { first: before + 1, last: before + 1 };
  });
  const beside = new Set<string>();
  for (const token of tokens) {
    if (!matchedTerms.has(token.term) || beside.has(token.term)) continue;
    const near = spans.some(
      ({ first, last }) =>
        (token.position < first && first - token.position <= REACH) ||
        (token.position > last && token.position - last <= REACH),
    );
    if (near) beside.add(token.term);
  }
  let sum = 0;
  for (const term of beside) sum += matchedTerms.get(term)!;
  return Math.min(1, sum / totalWeight);
}

/**
 * The verdict on a quotation from its alignment with the closest passage: `verbatim`, `close` (a few
 * function words or word forms differ), `altered` (a number, name, negation or other content word
 * differs, or meaningful words are added or dropped) or `not-found`.
 */
import type { AlignOp } from './align.ts';
import type { Word } from './words.ts';

export type Verdict = 'verbatim' | 'close' | 'altered' | 'not-found';

/**
 * Below this share of the quote's content words found, in order, in one passage, the passage is not the
 * quote's source but another text on the same subject.
 */
export const MIN_CONTENT_FOUND = 0.6;
/** A "close" quote differs in at most this many function words or word forms, plus one per ten words. */
const CLOSE_DIFFERENCES = 2;

const matters = (word: Word) => word.kind !== 'function';

/**
 * @param passage - the passage's words: the share of the quote found in it is then counted over them
 *   all, in order, not only over the words the alignment paired. A misquote that rewords a clause and
 *   changes a figure at once is aligned most cheaply as words of its own followed by the passage's end,
 *   which pairs too few of its words; the words it does share with the passage, in the passage's order,
 *   still say whose words it twists.
 */
export function verdictOf(
  quote: readonly Word[],
  ops: readonly AlignOp[],
  passage?: readonly Word[],
): Verdict {
  const content = quote.filter((word) => word.kind !== 'function');
  const counted = content.length > 0 ? content : quote;
  const found = new Set<Word>();
  for (const op of ops) if (op.op === 'same' || op.op === 'form') found.add(op.quote);
  const aligned =
    counted.length === 0 ? 0 : counted.filter((word) => found.has(word)).length / counted.length;
  const inOrder =
    passage === undefined || counted.length === 0 ? 0 : sharedInOrder(counted, passage) / counted.length;
  if (found.size < 2 || Math.max(aligned, inOrder) < MIN_CONTENT_FOUND) return 'not-found';

  let minor = 0;
  let major = false;
  for (const op of ops) {
    if (op.op === 'same') continue;
    const words =
      op.op === 'added' ? [op.quote] : op.op === 'dropped' ? [op.passage] : [op.quote, op.passage];
    if (op.op !== 'form' && words.some(matters)) major = true;
    else minor++;
  }
  if (!major && minor === 0) return 'verbatim';
  if (!major && minor <= CLOSE_DIFFERENCES + Math.floor(quote.length / 10)) return 'close';
  return 'altered';
}

/** How many of `words` appear in `passage` in the same order (the longest common subsequence, by stem). */
function sharedInOrder(words: readonly Word[], passage: readonly Word[]): number {
  let previous = new Uint16Array(passage.length + 1);
  let current = new Uint16Array(passage.length + 1);
  for (const word of words) {
    for (let j = 1; j <= passage.length; j++) {
      current[j] =
        word.stem === passage[j - 1]!.stem ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[passage.length]!;
}

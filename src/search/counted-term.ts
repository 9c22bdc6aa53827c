import { analyze, type Token, tokenize } from './analyze.ts';

/** "how many", "how much", "what number of": the question asks to count what follows. */
const COUNTING = /\b(?:how\s+(?:many|much)|what\s+number\s+of)\s+/gi;

/** How many words after "how many" the counted word may stand ("how much of Fox's shares"). */
const COUNTED_WITHIN = 4;

/** How many words before the counted one a number may stand: "1.7 million stolen credit card numbers". */
const NUMBER_WITHIN = 5;

/** A verb right after "how much" asks for an amount of the sentence's subject, not a count of a word. */
const AUXILIARY =
  /^(?:did|does|do|is|are|was|were|will|would|has|have|had|can|could|should|must|might|may)$/i;

/** Currency words, which the analyser makes of a sign before its number ("£1,800" is "pound 1800"). */
const CURRENCIES: ReadonlySet<string> = new Set(analyze('dollars pounds euros yen'));

/** Numbers written as words, as the analyser indexes them. */
const NUMBER_WORDS: ReadonlySet<string> = new Set(
  analyze(
    `one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty
    hundred hundreds thousand thousands million millions billion billions dozen dozens mln bn`,
  ),
);

/**
 * What a "how many" or "how much" question counts: the analysed term of the first word after it that is
 * not a function word ("How many stolen credit card numbers..." counts `stolen` numbers, "How much gold
 * does the IMF hold?" counts `gold`); undefined for a question that counts nothing ("How much did the
 * Syrian spend?").
 */
export function countedTerm(question: string): string | undefined {
  const tokens = tokenize(question);
  for (const match of question.matchAll(COUNTING)) {
    const after = match.index + match[0].length;
    const first = tokens.find((token) => token.start >= after);
    if (first === undefined) continue;
    const wordsBefore = question.slice(after, first.start).match(/\S+/g) ?? [];
    if (wordsBefore.length < COUNTED_WITHIN && !wordsBefore.some((word) => AUXILIARY.test(word))) {
      return first.term;
    }
  }
  return undefined;
}

const isNumber = (term: string) => /^\d/.test(term) || NUMBER_WORDS.has(term);

/**
 * Whether a number stands just before the counted term in the passage ("3,217 tonnes of gold" for "How
 * much gold does the IMF hold?"), or just after it for a currency sign ("£1,800" for "How many pounds?"):
 * the count the question asks for, not any number of the story. `tokens` are the passage's (`tokenize`).
 */
export function countsTerm(tokens: readonly Token[], counted: string): boolean {
  for (const [i, token] of tokens.entries()) {
    if (token.term !== counted) continue;
    const next = tokens[i + 1];
    if (CURRENCIES.has(counted) && next?.position === token.position + 1 && isNumber(next.term)) return true;
    for (let j = i - 1; j >= 0 && token.position - tokens[j]!.position <= NUMBER_WITHIN; j--) {
      if (isNumber(tokens[j]!.term)) return true;
    }
  }
  return false;
}

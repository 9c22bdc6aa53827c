import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { fold } from '../../src/search/analyze.ts';
import { type BuildSlices, SuggestionIndex } from '../../src/search/suggestion-index.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const FOLDERS = [path.join(ROOT, 'corpus'), path.join(ROOT, 'test', 'fixtures', 'seed-articles')];

/** Slices so small that a three-article corpus takes many steps and several merge passes. */
const TINY: BuildSlices = { articles: 1, keys: 3, run: 2 };

/** What a member may type: every start of every word of each headline, id and publisher, and more. */
function typings(articles: readonly Article[]): string[] {
  const typed = new Set<string>(['', ' ', 'zzzz', 'the', 'MAYOR', 'maire', 'Téteghem', '2024']);
  for (const article of articles) {
    for (const text of [article.title, article.id, article.publisher ?? '']) {
      typed.add(text);
      typed.add(text.toUpperCase());
      for (const word of fold(text)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)) {
        for (let length = 1; length <= Math.min(word.length, 6); length++) typed.add(word.slice(0, length));
        typed.add(word);
      }
    }
  }
  return [...typed];
}

function answers(index: SuggestionIndex, typed: readonly string[]): string[][] {
  return typed.flatMap((text) =>
    [1, 3, 25].flatMap((limit) => [
      index.suggest(text, limit).map((article) => article.id),
      index.starting(text, limit).map((article) => article.id),
    ]),
  );
}

describe('SuggestionIndex.buildSteps', () => {
  for (const folder of FOLDERS) {
    const name = path.relative(ROOT, folder);

    it(`over ${name}: the sliced build and now() at every step suggest exactly as build does`, async () => {
      const { articles } = await loadCorpus(folder);
      const typed = typings(articles);
      const expected = answers(SuggestionIndex.build(articles), typed);
      expect(expected.some((ids) => ids.length > 0)).toBe(true);

      for (const slices of [TINY, undefined]) {
        // now() asked before the step it stands at, each time a new build.
        let steps = 0;
        for (let before = 0; ; before++) {
          const build = SuggestionIndex.buildSteps(articles, slices);
          let step = build.steps.next();
          for (let i = 0; i < before && !step.done; i++) step = build.steps.next();
          expect(answers(build.now(), typed)).toEqual(expected);
          if (step.done) {
            expect(answers(step.value, typed)).toEqual(expected);
            // Once built, now() is the built index.
            expect(build.now()).toBe(step.value);
            break;
          }
          steps++;
        }
        if (slices === TINY) expect(steps).toBeGreaterThan(10);
      }
    });
  }

  it('a build asked by now() part-way finishes as build would', async () => {
    const { articles } = await loadCorpus(FOLDERS[1]!);
    const typed = typings(articles);
    const build = SuggestionIndex.buildSteps(articles, TINY);
    build.steps.next();
    build.now().suggest('a', 25);
    let step = build.steps.next();
    while (!step.done) step = build.steps.next();
    expect(answers(step.value, typed)).toEqual(answers(SuggestionIndex.build(articles), typed));
  });
});

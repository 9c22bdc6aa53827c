import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerToJson, makeStyle, renderAnswer } from '../src/cli/render-answer.ts';
import { renderTimeline } from '../src/cli/render-timeline.ts';
import { loadCorpus } from '../src/corpus/load-corpus.ts';
import { disagreementsIn } from '../src/factcheck/outlets-differ.ts';
import { Engine } from '../src/search/engine.ts';

/** The first fenced block after `marker` in the README whose opening line is `opening`. */
function blockAfter(readme: string, marker: string, opening: string): string {
  const from = readme.indexOf(marker);
  expect(from, `README mentions ${marker}`).toBeGreaterThanOrEqual(0);
  const rest = readme.slice(from + marker.length);
  const start = rest.indexOf(`\n${opening}\n`);
  const match = start < 0 ? null : /^\n[^\n]*\n([\s\S]*?)```/.exec(rest.slice(start));
  expect(match, `a ${opening} block after ${marker}`).not.toBeNull();
  return match![1]!;
}

describe('the README shows what the CLI prints (the bundled corpus)', () => {
  let readme: string;
  let engine: Engine;

  beforeAll(async () => {
    readme = await readFile('README.md', 'utf8');
    engine = Engine.build(await loadCorpus('corpus'));
  });

  it('the --json example, field for field', () => {
    const command = 'npm run --silent ask -- --json --limit 1 "who threatened the mayor?"';
    const shown = JSON.parse(blockAfter(readme, command, '```json')) as unknown;
    const answer = engine.answer('who threatened the mayor?', { limit: 1 });
    // As the CLI prints it: with the values outlets give differently (none here).
    expect(shown).toEqual(answerToJson(answer, disagreementsIn(answer.results, engine)));
  });

  it('the text example, as its first result reads without colour', () => {
    // After the command's own ```sh block has closed.
    const command = 'npm run ask -- "who threatened the mayor of Teteghem?"\n```\n';
    const shown = blockAfter(readme, command, '```');
    const printed = renderAnswer(engine.answer('who threatened the mayor of Teteghem?'), makeStyle(false));
    expect(printed.startsWith(shown)).toBe(true);
  });

  it('the --timeline example, every line shown (the dated fixtures)', async () => {
    const command =
      'npm run ask -- --corpus test/fixtures/dated-corpus --timeline "Gravelines dock strike"\n```\n';
    const shown = blockAfter(readme, command, '```').split('\n');
    const dated = Engine.build(await loadCorpus('test/fixtures/dated-corpus'));
    const printed = renderTimeline(dated.timeline('Gravelines dock strike'), makeStyle(false)).split('\n');
    // "…" stands for the lines left out; the others appear in order.
    const kept = shown.filter((line) => line !== '…');
    expect(printed.filter((line) => kept.includes(line))).toEqual(kept);
  });
});

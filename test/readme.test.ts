import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerToJson, makeStyle, renderAnswer } from '../src/cli/render-answer.ts';
import { loadCorpus } from '../src/corpus/load-corpus.ts';
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
    expect(shown).toEqual(answerToJson(engine.answer('who threatened the mayor?', { limit: 1 })));
  });

  it('the text example, as its first result reads without colour', () => {
    // After the command's own ```sh block has closed.
    const command = 'npm run ask -- "who threatened the mayor of Teteghem?"\n```\n';
    const shown = blockAfter(readme, command, '```');
    const printed = renderAnswer(engine.answer('who threatened the mayor of Teteghem?'), makeStyle(false));
    expect(printed.startsWith(shown)).toBe(true);
  });
});

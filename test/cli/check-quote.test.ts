import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOSTILE, hostileCorpus, TERMINAL_CONTROLS } from '../support/hostile-corpus.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

function checkQuote(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/check-quote.ts', ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('npm run check-quote', () => {
  it('prints the verdict, the diff and the citation for a person', async () => {
    const { code, stdout } = await checkQuote([
      'He said he had spent over $20,000 traveling from Syria to France',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('Altered:');
    expect(stdout).toContain(
      'He said he had spent over [-$18,000-] {+$20,000+} traveling from Syria to France',
    );
    expect(stdout).toContain('[teteghem-mayor-threatened-with-gun#5]');
  });

  it('with --json prints {verdict, citation, passage, diff, speaker, earliest}, earliest being the first dated outlet with the words', async () => {
    const { code, stdout } = await checkQuote([
      '--json',
      '--corpus',
      'test/factcheck/fixtures/outlets',
      'Some 18,000 migrants have tried to cross the Channel from Calais since January',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      verdict: 'verbatim',
      citation: 'telegraph-channel-crossings#1',
      speaker: null,
      // The BBC's earlier copy says 20,000: not the same words.
      earliest: { citation: 'telegraph-channel-crossings#1', published: '2015-08-02' },
    });
    expect(json.passage).toMatch(/^Some 18,000 migrants/);
    expect(json.diff).toEqual([
      { op: 'same', text: 'Some 18,000 migrants have tried to cross the Channel from Calais since January,' },
    ]);
  });

  it('gives citation null for words nowhere in the corpus, and refuses no quotation with exit code 2', async () => {
    const notFound = await checkQuote([
      '--json',
      'The chancellor promised lower taxes for every family in Wales.',
    ]);
    expect(JSON.parse(notFound.stdout)).toMatchObject({
      verdict: 'not-found',
      citation: null,
      earliest: null,
    });
    const none = await checkQuote([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no quotation given');
  });
  it('never writes terminal escapes or controls from the corpus or the quotation to the terminal', async () => {
    const dir = await hostileCorpus();
    const text = await checkQuote(['--corpus', dir, `A lighthouse keeper ${HOSTILE}rescued four kayakers`]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('rescued four kayakers');
    expect(text.stdout).not.toMatch(TERMINAL_CONTROLS);
    const json = await checkQuote([
      '--json',
      '--corpus',
      dir,
      `A lighthouse keeper ${HOSTILE}rescued four kayakers`,
    ]);
    expect(json.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect((JSON.parse(json.stdout) as { passage: string }).passage).toContain(HOSTILE);
  });
});

import { describe, expect, it } from 'vitest';
import { escapeText } from '../../../src/interactions/render/escape.ts';
import { fitText, hardCut, sentenceEnds } from '../../../src/interactions/render/truncate.ts';

describe('fitText', () => {
  it('leaves text that fits alone', () => {
    expect(fitText('Short. Text.', 100)).toBe('Short. Text.');
  });

  it('cuts after the last whole sentence that fits, then adds the note', () => {
    const text = 'The mayor spoke. He was threatened. Police advised him to stay away.';
    expect(fitText(text, 45, { note: ' [cut]' })).toBe('The mayor spoke. He was threatened. [cut]');
  });

  it('keeps closing quotes with their sentence', () => {
    const text = 'He said "it is violent." Then he left the camp quickly.';
    expect(fitText(text, 30, { note: '…' })).toBe('He said "it is violent."…');
  });

  it('falls back to a word boundary when one sentence is too long', () => {
    expect(fitText('one two three four five six seven', 16)).toBe('one two three…');
  });

  it('counts the escaped length, so escaping never pushes it over', () => {
    const out = fitText('*a* *b* *c*. *d* *e* *f*.', 20, { render: escapeText });
    expect(out.length).toBeLessThanOrEqual(20);
    expect(out).toBe('\\*a\\* \\*b\\* \\*c\\*.…');
  });

  it('never splits a surrogate pair', () => {
    const out = fitText('😀'.repeat(50), 11);
    expect(out.length).toBeLessThanOrEqual(11);
    expect(out).toBe(`${'😀'.repeat(5)}…`);
  });
});

describe('hardCut', () => {
  it('does not leave a backslash that would swallow the ellipsis', () => {
    expect(hardCut('abc\\*def', 5)).toBe('abc…');
  });
});

describe('sentenceEnds', () => {
  it('finds the ends of sentences, including ? ! and closing quotes', () => {
    expect(sentenceEnds('Why? Because! "Yes." End')).toEqual([4, 13, 20]);
  });
});

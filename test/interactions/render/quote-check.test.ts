import { describe, expect, it } from 'vitest';
import type { QuoteCheck } from '../../../src/factcheck/check-quote.ts';
import { finalizeReply, payloadViolations } from '../../../src/interactions/render/payload.ts';
import { renderDiff, renderQuoteCheck } from '../../../src/interactions/render/quote-check.ts';

const article = {
  id: 'a',
  title: '**Bold** <@123> headline',
  publisher: 'The @everyone Times',
  published: '2015-08-01',
  url: 'https://example.com/a',
  author: null,
  language: null,
};

describe('renderQuoteCheck', () => {
  it('keeps a long, hostile diff within Discord’s limits, escaped and pinging nobody', () => {
    const nasty = '**x** <@&42> @here `code` ~~y~~ __z__ ';
    const check: QuoteCheck = {
      quote: nasty.repeat(30),
      verdict: 'altered',
      source: { citation: 'a#1', article, passage: nasty.repeat(60) },
      diff: Array.from({ length: 200 }, (_, i) => ({
        op: (['same', 'added', 'dropped'] as const)[i % 3]!,
        text: nasty,
      })),
      speaker: '@everyone',
      earliest: { citation: 'b#2', article: { ...article, id: 'b' }, published: '2015-07-30' },
    };
    const payload = finalizeReply(renderQuoteCheck(check));
    expect(payloadViolations(payload)).toEqual([]);
    const description = payload.embeds?.[0]?.description ?? '';
    expect(description).toContain('Earliest with these words:');
    expect(description).toContain('cite `a#1`');
    expect(description).not.toMatch(/(?<!\\)\*\*x/);
  });

  it('never cuts inside a marker', () => {
    const diff = renderDiff(
      [
        { op: 'same', text: 'one two three' },
        { op: 'dropped', text: 'four five six seven' },
        { op: 'added', text: 'eight' },
      ],
      30,
    );
    expect(diff).toBe('one two three …');
  });

  it('says not found with the quote escaped and no embed', () => {
    const payload = renderQuoteCheck({
      quote: '*hello* @everyone',
      verdict: 'not-found',
      source: null,
      diff: [],
      speaker: null,
      earliest: null,
    });
    expect(payload.embeds).toBeUndefined();
    expect(payload.content).toContain('\\*hello\\* @\u200beveryone');
  });
});

import { describe, expect, it } from 'vitest';
import { boldHighlights, collapseWhitespace } from '../../../src/interactions/render/answer.ts';
import type { AnswerResult } from '../../../src/search/answer.ts';
import { renderAnswer } from '../../support/question-reply.ts';

const result = (overrides: Partial<AnswerResult> = {}): AnswerResult => ({
  citation: 'mayor#2',
  article: 'mayor',
  paragraph: 2,
  title: 'Mayor threatened',
  publisher: 'BBC',
  url: 'https://example.com/mayor',
  published: '2015-08-01',
  author: null,
  language: null,
  quote: 'The mayor of Teteghem was threatened.',
  highlights: [{ start: 4, end: 9 }],
  passage: 'The mayor of Teteghem was threatened.',
  score: 1,
  alsoReportedBy: [],
  ...overrides,
});

describe('boldHighlights', () => {
  it('bolds the highlighted spans and escapes everything else', () => {
    expect(boldHighlights('a *b* mayor c', [{ start: 6, end: 11 }])).toBe('a \\*b\\* **mayor** c');
  });

  it('merges overlapping spans and ignores spans outside the text', () => {
    expect(
      boldHighlights('mayor spoke', [
        { start: 0, end: 3 },
        { start: 2, end: 5 },
        { start: 40, end: 50 },
      ]),
    ).toBe('**mayor** spoke');
  });
});

describe('collapseWhitespace', () => {
  it('keeps highlights on the same words when whitespace runs shrink', () => {
    const collapsed = collapseWhitespace('  The\n\nmayor   spoke', [{ start: 7, end: 12 }]);
    expect(collapsed.text).toBe('The mayor spoke');
    expect(collapsed.text.slice(collapsed.highlights[0]!.start, collapsed.highlights[0]!.end)).toBe('mayor');
  });
});

describe('renderAnswer', () => {
  it('cites the day an article states, and says "undated" rather than leave a date out', () => {
    const reply = renderAnswer(
      {
        query: 'who?',
        results: [
          result({ published: '1987-02-26T15:01:11.79', url: null }),
          result({ citation: 'seed#1', published: null, url: null }),
        ],
        hasMore: false,
        assurance: 'answer',
      },
      { question: 'who?', limit: 3, offset: 0, source: null },
    );
    const descriptions = reply.embeds?.map((embed) => embed.description);
    expect(descriptions?.[0]).toContain('— BBC, 1987-02-26 · cite `mayor#2`');
    expect(descriptions?.[1]).toContain('— BBC, undated · cite `seed#1`');
  });

  it('renders each passage as a quote with a citation line: publisher, date, link and citation id', () => {
    const reply = renderAnswer(
      {
        query: 'who?',
        results: [result({ alsoReportedBy: ['other#4'] })],
        hasMore: false,
        assurance: 'answer',
      },
      { question: 'who?', limit: 3, offset: 0, source: null },
    );
    expect(reply.content).toBe('One passage answers your question:');
    expect(reply.embeds?.[0]).toMatchObject({
      title: '1. Mayor threatened',
      url: 'https://example.com/mayor',
      description:
        '> The **mayor** of Teteghem was threatened.\n— BBC, 2015-08-01 · [link](<https://example.com/mayor>) · cite `mayor#2`\nAlso reported by: `other#4`',
      footer: { text: 'Asked: who?\nResults 1–1' },
    });
    expect(reply.components).toEqual([
      { type: 1, components: [{ type: 2, style: 2, label: 'Timeline', custom_id: 'ask:timeline' }] },
      { type: 1, components: [{ type: 2, style: 2, label: 'Show context', custom_id: 'ask:ctx:mayor#2' }] },
    ]);
  });

  it('cuts a long quote after a sentence, with a note saying where to read all of it', () => {
    const sentence = (word: string) =>
      `The ${word} committee met for a very long time to discuss ${'the harbour timetable and '.repeat(12)}fees.`;
    const quote = [sentence('first'), sentence('second'), sentence('third')].join(' ');
    const reply = renderAnswer(
      {
        query: 'q',
        results: [result({ quote, highlights: [{ start: 4, end: 9 }] })],
        hasMore: false,
        assurance: 'answer',
      },
      { question: 'q', limit: 1, offset: 0, source: null },
    );
    const description = reply.embeds?.[0]?.description ?? '';
    expect(description).toMatch(
      /^> The \*\*first\*\* committee .* fees\. The second committee .* fees\. … \*\(cut; `\/cite mayor#2` shows it all\)\*\n— BBC/,
    );
    expect(description).not.toContain('third');
  });

  it("says what a year named in the question did, and each fact's earliest and latest report", () => {
    const reported = {
      earliest: { citation: 'wire#1', publisher: 'Wire', published: '1987-02-26T15:01:11.79' },
      latest: { citation: 'mayor#2', publisher: 'BBC', published: '2015-08-01' },
    };
    const reply = renderAnswer(
      {
        query: 'q',
        results: [result({ alsoReportedBy: ['wire#1'], reported })],
        hasMore: false,
        time: { named: { label: '2003', found: false, closest: '1987' } },
        assurance: 'answer',
      },
      { question: 'q', limit: 1, offset: 0, source: null },
    );
    expect(reply.content).toBe(
      'Nothing from 2003; closest coverage is from 1987:\nOne passage answers your question:',
    );
    expect(reply.embeds?.[0]?.description).toContain(
      '\nFirst reported by Wire (1987-02-26, `wire#1`) · latest: BBC (2015-08-01, `mayor#2`)',
    );
    const newest = renderAnswer(
      { query: 'q', results: [result()], hasMore: false, time: { newestFirst: true }, assurance: 'answer' },
      { question: 'q', limit: 1, offset: 0, source: null },
    );
    expect(newest.content).toBe('Newest reports first.\nOne passage answers your question:');
  });

  it('gives no context button to a citation too long for a custom_id, and offers the next page', () => {
    const long = `${'a'.repeat(95)}#1`;
    const reply = renderAnswer(
      { query: 'q', results: [result({ citation: long })], hasMore: true, assurance: 'answer' },
      { question: 'q', limit: 1, offset: 4, source: null },
    );
    expect(reply.components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 1, label: 'More results', custom_id: 'ask:more:5:1' },
          { type: 2, style: 2, label: 'Timeline', custom_id: 'ask:timeline' },
        ],
      },
    ]);
  });
});

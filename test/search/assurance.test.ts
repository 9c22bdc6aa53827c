import { describe, expect, it } from 'vitest';
import { finish } from '../../src/event-loop.ts';
import type { AnswerResult } from '../../src/search/answer.ts';
import { answerInTime, type Found } from '../../src/search/time-layer.ts';

const report = (citation: string, published: string | null): AnswerResult => ({
  citation,
  article: citation.slice(0, citation.indexOf('#')),
  paragraph: 1,
  title: citation,
  publisher: null,
  url: null,
  published,
  author: null,
  language: 'en',
  quote: 'q',
  highlights: [],
  passage: 'p',
  score: 1,
  alsoReportedBy: [],
});

/** A search answering the question as asked with `asked` and within any period with `within`. */
function searches(asked: Found, within: Found) {
  return function* (_text: string, period: unknown) {
    yield;
    return period === undefined ? asked : within;
  };
}

describe('how sure an answer is, across the searches of the date layer', () => {
  const answer: Found = { groups: [[report('a#1', '2015-08-01')]], assurance: 'answer' };
  const closest: Found = {
    groups: [[report('b#1', '2003-05-01')]],
    assurance: 'closest',
    stories: [
      { article: 'b', title: 'b', publisher: null, published: null },
      { article: 'c', title: 'c', publisher: null, published: null },
    ],
  };
  const none: Found = { groups: [], assurance: 'none' };

  it('never puts closest coverage from a named period beside an answer', () => {
    const reply = finish(
      answerInTime('dock strike in 2003', 0, 3, undefined, true, searches(answer, closest)),
    );
    expect(reply.assurance).toBe('answer');
    expect(reply.results.map((r) => r.citation)).toEqual(['a#1']);
    expect(reply.time?.named).toEqual({ label: '2003', found: false, closest: '2015' });
  });

  it('gives closest coverage, with its stories, when no search answers', () => {
    const reply = finish(answerInTime('dock strike', 0, 3, undefined, true, searches(closest, none)));
    expect(reply.assurance).toBe('closest');
    expect(reply.results.map((r) => r.citation)).toEqual(['b#1']);
    expect(reply.stories?.map((story) => story.article)).toEqual(['b', 'c']);
  });

  it('says "none" with no results when nothing is found', () => {
    const reply = finish(answerInTime('dock strike', 0, 3, undefined, true, searches(none, none)));
    expect(reply).toEqual({ query: 'dock strike', results: [], hasMore: false, assurance: 'none' });
  });
});

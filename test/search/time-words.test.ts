import { describe, expect, it } from 'vitest';
import { readTimeWords, topicOf } from '../../src/search/time-words.ts';

describe('the time words of a question', () => {
  it('reads a year or a month named with a preposition, or a month with its year anywhere', () => {
    expect(readTimeWords('What did OPEC decide in 2003?')).toEqual({
      named: { label: '2003', period: { since: '2003-01-01', until: '2003-12-31' } },
      recent: false,
      latest: false,
      topic: 'What did OPEC decide ?',
    });
    expect(readTimeWords('strike in August 2015').named).toEqual({
      label: 'August 2015',
      period: { since: '2015-08-01', until: '2015-08-31' },
      year: { since: '2015-01-01', until: '2015-12-31' },
    });
    expect(readTimeWords('what happened during Feb. 2004 at the port').named).toEqual({
      label: 'February 2004',
      period: { since: '2004-02-01', until: '2004-02-29' },
      year: { since: '2004-01-01', until: '2004-12-31' },
    });
    expect(readTimeWords('the sept 1987 crash').named?.label).toBe('September 1987');
    expect(readTimeWords('Gravelines strike in late 2003').named?.label).toBe('2003');
  });

  it('leaves a year that names an event, or a number that is not a year, as search words', () => {
    expect(readTimeWords('who won the 2003 final?').named).toBeUndefined();
    expect(readTimeWords('were 1500 jobs cut in 1500 plants?').named).toBeUndefined();
    expect(readTimeWords('what may happen in 2003').named?.label).toBe('2003');
  });

  it('hears a wish for the latest state, but not "current account" or "recent years"', () => {
    for (const question of [
      "what's the latest on the strike?",
      'who currently owns the terminal?',
      'is the port still closed?',
      'most recent figures for steel output',
      'who owns it now',
    ])
      expect(readTimeWords(question).recent, question).toBe(true);
    for (const question of ['what was the current account deficit?', 'growth in recent years', 'who owns it'])
      expect(readTimeWords(question).recent, question).toBe(false);
    // The newest coverage itself, or only the present state of a fact.
    for (const question of ["what's the latest on the strike?", 'most recent figures for steel output'])
      expect(readTimeWords(question).latest, question).toBe(true);
    for (const question of [
      'who currently owns the terminal?',
      'is the port still closed?',
      'who owns it now',
    ])
      expect(readTimeWords(question).latest, question).toBe(false);
    expect(readTimeWords("What's the latest on the strike?").topic).toBe("What's the on the strike?");
  });

  it('makes a timeline topic of a question: its searched words as written, time words left out', () => {
    expect(topicOf("What's the latest on the Gravelines dock strike?")).toBe('Gravelines dock strike');
    expect(topicOf('What did OPEC decide in 2003?')).toBe('OPEC decide');
    expect(topicOf('what is new?')).toBe('new');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { publishedDay } from '../../src/corpus/published-date.ts';
import { Engine } from '../../src/search/engine.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

/**
 * The dated fixture corpus: a dock strike at Gravelines reported in 1987 (Reuters' date form), 2003 and
 * 2015 (ISO dates and date-times with offsets), one undated report, and the sale of its terminal told
 * by three outlets on three days of 2016.
 */
let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(DATED_CORPUS));
});

const days = (results: { published: string | null }[]) =>
  results.map((r) => (r.published === null ? 'undated' : publishedDay(r.published)));

describe('a year or month named in the question', () => {
  it('prefers passages from articles of that period, and says so', () => {
    const answer = engine.answer('Gravelines dock strike in 2003', { limit: 2 });
    expect(answer.time).toEqual({ named: { label: '2003', found: true } });
    expect(new Set(answer.results.map((r) => r.article))).toEqual(
      new Set(['dock-strike-begins', 'dock-strike-talks']),
    );
    // The rest of the coverage still follows on later pages.
    expect(answer.hasMore).toBe(true);
    const month = engine.answer('Gravelines dock strike in August 2015', { limit: 3 });
    expect(month.time?.named).toEqual({ label: 'August 2015', found: true });
    for (const day of days(month.results)) expect(day.slice(0, 7)).toBe('2015-08');
  });

  it('with no coverage from then, says so and when the nearest coverage shown is from, in ranked order', () => {
    // 2015 is a year the archive mentions (the dock strike), but the terminal's sale is reported in 2016.
    const asked = 'who bought the Gravelines container terminal in 2015?';
    const answer = engine.answer(asked, { limit: 2 });
    expect(answer.time).toEqual({ named: { label: '2015', found: false, closest: '2016' } });
    expect(answer.results.map((r) => r.article)).toEqual(
      engine.answer(asked, { limit: 2, timeWords: false }).results.map((r) => r.article),
    );
    // A month with no coverage: its year's coverage first.
    const month = engine.answer('Gravelines dock strike in July 2015', { limit: 2 });
    expect(month.time?.named).toEqual({ label: 'July 2015', found: false, closest: 'August 2015' });
    for (const day of days(month.results)) expect(day.slice(0, 4)).toBe('2015');
  });

  it('never answers a question that as asked, its year and all, finds nothing', () => {
    // "1990" is in no article, so as a search word it leaves the question short of the bar for an
    // answer; dropping it would answer "who won the World Cup in 2018?" from other years' coverage.
    const refused = engine.answer('Gravelines dock fire in 1990', { limit: 2 });
    expect(engine.answer('Gravelines dock fire in 1990', { limit: 2, timeWords: false }).results).toEqual([]);
    // Refused, the answer still says which period it named, so the reply can say nothing from then answers.
    expect(refused).toEqual({
      query: 'Gravelines dock fire in 1990',
      results: [],
      hasMore: false,
      time: { named: { label: '1990', found: false } },
      assurance: 'none',
    });
  });

  it('answers a covered topic asked of a year nobody reported with "nothing from then" and the closest coverage', () => {
    // The dock strike is covered (1987, 2003, 2015), only not in 1990. With everyday English as a prior
    // on rarity (everyday-words.ts), "Gravelines", "dock" and "strike" weigh as specific words although
    // each of these nine articles uses them, so the strike is found and the year alone is missing.
    const answer = engine.answer('Gravelines dock strike in 1990', { limit: 2 });
    expect(answer.time).toEqual({ named: { label: '1990', found: false, closest: '2015' } });
    expect(answer.results[0]?.passage).toContain('dock strike at Gravelines');
  });

  it('gives way to a period the user set with since/until', () => {
    const answer = engine.answer('Gravelines dock strike in 2003', {
      limit: 5,
      period: { since: '2015-01-01', until: '2015-12-31' },
    });
    expect(answer.time).toBeUndefined();
    for (const day of days(answer.results)) expect(day.slice(0, 4)).toBe('2015');
  });
});

describe('a question asking for the latest state', () => {
  it('puts newer dated reports first; an undated one keeps its ranked place', () => {
    const answer = engine.answer("What's the latest on the Gravelines dock strike?", { limit: 5 });
    expect(answer.time).toEqual({ newestFirst: true });
    const plain = engine.answer('Gravelines dock strike', { limit: 5 });
    expect(plain.results[0]?.article).toBe('dock-strike-undated');
    const shown = days(answer.results);
    // Its place in time is unknown: moving it below every dated report would put any dated passage,
    // however weak, above an undated article that answers.
    expect(shown[0]).toBe('undated');
    expect(shown[1]).toBe('2015-08-31');
    expect(shown.slice(1)).toEqual([...shown.slice(1)].sort().reverse());
  });

  it('for the present state of a fact ("now", "still"), leads each fact with its newest report, facts as ranked', () => {
    const still = engine.answer('Is the Gravelines dock strike still on?', { limit: 5 });
    const plain = engine.answer('Is the Gravelines dock strike on?', { limit: 5 });
    expect(still.time).toBeUndefined();
    // "still", a word no passage holds, may leave the last result short of the bar; the order is kept.
    expect(still.results.length).toBeGreaterThan(1);
    expect(still.results.map((r) => r.article)).toEqual(
      plain.results.slice(0, still.results.length).map((r) => r.article),
    );
  });

  it('leads a same-fact group with its newest report; every group shows its earliest and latest outlet', () => {
    const earliest = { citation: 'port-sale-wire#1', publisher: 'Wire', published: '2016-02-01T09:00:00Z' };
    const latest = { citation: 'port-sale-gazette#1', publisher: 'Harbour Gazette', published: '2016-06-30' };
    const asked = engine.answer('Who bought the Gravelines container terminal?', { limit: 1 });
    expect(asked.results[0]).toMatchObject({ article: 'port-sale-wire', reported: { earliest, latest } });
    expect([...(asked.results[0]?.alsoReportedBy ?? [])].sort()).toEqual([
      'port-sale-courier#1',
      'port-sale-gazette#1',
    ]);
    const now = engine.answer('Who owns the Gravelines container terminal now?', { limit: 1 });
    expect(now.results[0]).toMatchObject({ article: 'port-sale-gazette', reported: { earliest, latest } });
  });

  it('is off with timeWords: false (how the evaluation measures the layer)', () => {
    const off = engine.answer("What's the latest on the Gravelines dock strike?", {
      limit: 5,
      timeWords: false,
    });
    expect(off.time).toBeUndefined();
  });
});

describe('a timeline', () => {
  it('lists one passage per article, oldest first (the first report), undated apart', () => {
    const timeline = engine.timeline('Gravelines dock strike');
    expect(timeline.dated.map((entry) => entry.article)).toEqual([
      'wire-1987',
      'dock-strike-begins',
      'dock-strike-talks',
      'dock-strike-returns',
      'wire-2015',
      'dock-strike-ends',
    ]);
    expect(timeline.undated.map((entry) => entry.article)).toEqual(['dock-strike-undated']);
    expect(timeline.dated[0]).toMatchObject({
      citation: 'wire-1987#1',
      published: '1987-02-26T15:01:11.79',
      quote: 'Dock workers at the French port of Gravelines went on strike over pay, port officials said.',
    });
  });

  it('within a period: inclusive days as the sources state them, undated articles left out', () => {
    // 2003-12-31T22:15+01:00 is 31 December where it was published, so it is in 2003.
    const timeline = engine.timeline('Gravelines dock strike', {
      period: { since: '2003-03-10', until: '2003-12-31' },
    });
    expect(timeline.dated.map((entry) => entry.article)).toEqual(['dock-strike-begins', 'dock-strike-talks']);
    expect(timeline.undated).toEqual([]);
  });

  it('is empty for a topic the corpus does not cover', () => {
    expect(engine.timeline('volcanic eruption in Iceland')).toEqual({
      topic: 'volcanic eruption in Iceland',
      dated: [],
      undated: [],
    });
  });
});

describe('articles by their text', () => {
  it('finds the articles holding every word, whatever their headline says', () => {
    expect(
      engine
        .articlesMentioning('Antwerp')
        .map((a) => a.id)
        .sort(),
    ).toEqual(['port-sale-courier', 'port-sale-gazette', 'port-sale-wire']);
    expect(engine.articlesMentioning('Antwerp uncertainty').map((a) => a.id)).toEqual(['port-sale-courier']);
    expect(engine.articlesMentioning('Antwerp zeppelin')).toEqual([]);
  });
});

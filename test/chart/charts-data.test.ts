import { beforeAll, describe, expect, it } from 'vitest';
import { barTotals, chartTotal } from '../../src/chart/bar-chart.ts';
import { corpusChart } from '../../src/chart/corpus-chart.ts';
import { describeChart } from '../../src/chart/describe-chart.ts';
import { gapsChart } from '../../src/chart/gaps-chart.ts';
import { OTHER_COLOUR, SERIES_COLOURS } from '../../src/chart/palette.ts';
import { timelineChart } from '../../src/chart/timeline-chart.ts';
import { groupQuestions } from '../../src/community/gaps.ts';
import type { GapsReport } from '../../src/community/gaps-report.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import type { Timeline, TimelineEntry } from '../../src/search/answer.ts';
import { Engine } from '../../src/search/engine.ts';
import { parsePeriod } from '../../src/search/period.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

describe('GIVEN the dated fixture (a dock strike and a port sale, 1987-2016)', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(DATED_CORPUS));
  });

  it('the timeline chart counts every dated article listed, per year, by outlet, and marks the first report', () => {
    const timeline = engine.timeline('Gravelines');
    const chart = timelineChart(timeline)!;
    expect(chartTotal(chart)).toBe(timeline.dated.length);
    expect(chart.labels[0]).toBe('1987');
    expect(chart.labels.at(-1)).toBe('2016');
    const bars = Object.fromEntries(
      barTotals(chart)
        .map((count, index) => [chart.labels[index], count] as const)
        .filter(([, count]) => count > 0),
    );
    expect(bars).toEqual({ 1987: 1, 2003: 2, 2015: 3, 2016: 3 });
    expect(chart.series.map((series) => [series.name, series.counts.reduce((a, b) => a + b, 0)])).toEqual([
      ['Harbour Gazette', 3],
      ['Coastal Courier', 3],
      ['Wire', 2],
      ['publisher unknown', 1],
    ]);
    expect(chart.marker).toEqual({ index: 0, label: 'First report 26 Feb 1987' });
    expect(chart.title).toBe('Gravelines, 1987 – 2016');
    expect(chart.subtitle).toBe('9 dated articles per year, by outlet');
    expect(chart.note).toBe('1 undated article is listed but not drawn.');
    expect([chart.width, chart.height]).toEqual([800, 400]);
  });

  it('a short story is drawn per week, its first report named with its outlet', () => {
    const chart = timelineChart(engine.timeline('container terminal sale'))!;
    expect(chart.subtitle).toBe('3 dated articles per week, by outlet');
    expect(chart.title).toBe('container terminal sale, 1 Feb – 30 Jun 2016');
    expect(chart.marker?.label).toBe('First report 1 Feb 2016, Wire');
    expect(barTotals(chart)[0]).toBe(2);
    expect(chart.note).toBeUndefined();
  });

  it("a period the member gave is the title's", () => {
    const timeline = engine.timeline('Gravelines dock strike', {
      period: parsePeriod({ since: '2003', until: '2003' })!,
    });
    expect(timeline.dated.length).toBe(2);
    expect(timelineChart(timeline, { since: '2003', until: '2003' })?.title).toBe(
      'Gravelines dock strike, 2003',
    );
  });

  it('coverage that is all undated has nothing to draw', () => {
    const timeline = engine.timeline('ferries');
    expect(timeline.dated).toEqual([]);
    expect(timeline.undated.length).toBeGreaterThan(0);
    expect(timelineChart(timeline)).toBeUndefined();
  });

  it('the corpus chart counts every dated article per month, the undated in its note', () => {
    const articles = engine.articles();
    const chart = corpusChart(articles)!;
    const dated = articles.filter((article) => article.published !== null).length;
    expect(chartTotal(chart)).toBe(dated);
    expect(chart.note).toBe(`${articles.length - dated} undated not drawn`);
    expect(chart.compact).toBe(true);
    expect(corpusChart(articles.map((article) => ({ ...article, published: null })))).toBeUndefined();
  });
});

describe('timeline charts with many outlets', () => {
  const entry = (day: string, publisher: string | null, n: number): TimelineEntry => ({
    citation: `a${n}#1`,
    article: `a${n}`,
    title: `t${n}`,
    publisher,
    url: null,
    published: day,
    author: null,
    language: null,
    quote: '',
    highlights: [],
  });

  it('names the five largest outlets and puts the rest together in grey, last', () => {
    const outlets = ['A', 'A', 'A', 'B', 'B', 'C', 'C', 'D', 'E', 'F', 'G', null];
    const timeline: Timeline = {
      topic: 'x',
      dated: outlets.map((outlet, index) =>
        entry(`2020-01-${String(index + 1).padStart(2, '0')}`, outlet, index),
      ),
      undated: [],
    };
    const chart = timelineChart(timeline)!;
    expect(chart.series.map((series) => series.name)).toEqual(['A', 'B', 'C', 'D', 'E', 'other outlets']);
    expect(chart.series.map((series) => series.colour)).toEqual([
      ...SERIES_COLOURS.slice(0, 5),
      OTHER_COLOUR,
    ]);
    expect(chart.series.at(-1)?.counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(chartTotal(chart)).toBe(12);
  });
});

describe('the gaps chart', () => {
  const at = (day: string) => new Date(`${day}T12:00:00Z`);
  const asked = [
    ...['2026-01-05', '2026-01-06', '2026-01-20'].map((day) => ({
      question: 'When will the Gravelines bridge reopen?',
      askedAt: at(day),
    })),
    { question: 'train strike dates', askedAt: at('2026-01-13') },
    { question: 'Who won the regatta?', askedAt: at('2026-01-27') },
  ];
  const report = (questions: typeof asked): GapsReport => ({
    days: 30,
    from: at('2026-01-01'),
    to: at('2026-01-31'),
    questionsRecorded: true,
    unanswered: questions.length,
    groups: groupQuestions(questions),
    unhelpful: [],
  });

  it('counts the questions without coverage per week, by subject', () => {
    const chart = gapsChart(report(asked))!;
    expect(chart.subtitle).toBe('5 questions per week, by subject · 1 Jan – 31 Jan 2026');
    expect(chart.labels).toEqual(['29 Dec', '5 Jan', '12 Jan', '19 Jan', '26 Jan']);
    expect(chart.series.map((series) => [series.name, series.counts])).toEqual([
      ['gravelines, bridge, reopen', [0, 2, 0, 1, 0]],
      // Groups asked as often come most recently asked first, as the report lists them.
      ['won, regatta', [0, 0, 0, 0, 1]],
      ['train, strike, dates', [0, 0, 1, 0, 0]],
    ]);
  });

  it('has nothing to draw when every question found coverage', () => {
    expect(gapsChart(report([]))).toBeUndefined();
  });
});

describe('the alt text', () => {
  it('says the totals and every bar that is not empty, within 1,024 characters', () => {
    const chart = {
      name: 'timeline',
      width: 800,
      height: 400,
      title: 'Strike, 2003',
      subtitle: '3 dated articles per month, by outlet',
      unit: 'articles',
      labels: ['Mar 2003', 'Apr 2003', 'May 2003'],
      series: [
        { name: 'Gazette', counts: [1, 0, 1], colour: '#0072B2' },
        { name: 'Courier', counts: [0, 0, 1], colour: '#E69F00' },
      ],
      marker: { index: 0, label: 'First report 10 Mar 2003, Gazette' },
    };
    expect(describeChart(chart)).toBe(
      'Bar chart: Strike, 2003. 3 dated articles per month, by outlet. Totals: Gazette 2, Courier 1 (3 in all). Bars: Mar 2003 1, May 2003 2. First report 10 Mar 2003, Gazette.',
    );
    const long = {
      ...chart,
      labels: chart.labels.flatMap(() => Array.from({ length: 100 }, (_, i) => `week ${i}`)),
      series: [{ name: 'x', counts: Array.from({ length: 300 }, () => 1), colour: '#0072B2' }],
    };
    const text = describeChart(long);
    expect(text.length).toBeLessThanOrEqual(1024);
    expect(text).toContain('300 in all.');
    expect(text).toContain('Busiest: ');
  });
});

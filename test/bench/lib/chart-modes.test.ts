import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChartOutcome,
  chartLines,
  chartTargets,
  measureChartModes,
} from '../../../bench/lib/chart-modes.ts';
import { summarizeLatencies } from '../../../bench/lib/percentiles.ts';
import { ChartWorker } from '../../../src/chart/chart-renderer.ts';
import { loadCorpus } from '../../../src/corpus/load-corpus.ts';
import { Engine } from '../../../src/search/engine.ts';
import { DATED_CORPUS } from '../../support/temp-corpus.ts';

describe('measureChartModes on the dated fixture', () => {
  let engine: Engine;
  const charts = new ChartWorker({ keep: 0 });
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(DATED_CORPUS));
  });
  afterAll(() => charts.close());

  it("times each dated timeline's text and chart, and /ask with the worker idle and drawing, as often", async () => {
    const questions = [
      'Gravelines dock strike',
      'ferries',
      'container terminal sale',
      'Who bought the port?',
    ];
    const measured = await measureChartModes(engine, charts, questions, 60);
    // "ferries" has only an undated article: no chart, not counted.
    expect(measured.charted).toBe(3);
    expect(measured.chart.count).toBe(3);
    expect(measured.chartCpu.count).toBe(3);
    expect(measured.askIdle.count).toBe(questions.length);
    expect(measured.askWhileDrawing.count).toBe(questions.length);
    expect(measured.drawnMeanwhile).toBeGreaterThan(0);
    expect(measured.pngBytes.p50).toBeGreaterThan(10_000);
  });
});

describe('the chart targets', () => {
  const outcome = (chartCpuP99: number, askIdleP99: number, askDrawingP99: number): ChartOutcome => {
    const summary = (ms: number) => summarizeLatencies([ms / 2, ms]);
    return {
      corpusName: 'full',
      passages: 120_000,
      charted: 2,
      timeline: summary(100),
      chart: summary(chartCpuP99 * 3),
      chartCpu: summary(chartCpuP99),
      timelineWithChart: summary(200),
      pngBytes: summary(40_000),
      askIdle: summary(askIdleP99),
      askWhileDrawing: summary(askDrawingP99),
      drawnMeanwhile: 10,
      load: [2, 2],
    };
  };

  it('pass under 300 ms of CPU at p99 and /ask within 1.1x, and fail past them', () => {
    expect(chartTargets(outcome(120, 200, 215)).map((t) => t.status)).toEqual(['PASS', 'PASS']);
    expect(chartTargets(outcome(320, 200, 240)).map((t) => t.status)).toEqual(['FAIL', 'FAIL']);
    expect(chartTargets(undefined).map((t) => t.status)).toEqual(['SKIP', 'SKIP']);
    expect(chartTargets(outcome(120, 200, 215))[1]?.detail).toMatch(/^1\.07x/);
    expect(chartLines(outcome(120, 200, 215)).join('\n')).toContain('/ask while charts are drawn');
    expect(chartLines({ error: 'boom\nstack' })).toEqual(['Charts (issue 30): FAILED: boom']);
  });
});

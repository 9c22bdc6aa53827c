import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BarChart } from '../../src/chart/bar-chart.ts';
import { ChartError, ChartWorker } from '../../src/chart/chart-renderer.ts';
import { corpusChart } from '../../src/chart/corpus-chart.ts';
import { drawChart } from '../../src/chart/draw-chart.ts';
import { BACKGROUND } from '../../src/chart/palette.ts';
import { timelineChart } from '../../src/chart/timeline-chart.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';
import { searchBegun } from '../../src/search/searches-in-flight.ts';
import { decodePng, inkShare, pixelsOf } from '../support/png.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

describe('GIVEN the chart of the dated fixture\'s "Gravelines" timeline', () => {
  let chart: BarChart;
  let engine: Engine;
  const workers: ChartWorker[] = [];
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(DATED_CORPUS));
    chart = timelineChart(engine.timeline('Gravelines'))!;
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
  });
  const worker = (options?: ConstructorParameters<typeof ChartWorker>[0]) => {
    const made = new ChartWorker(options);
    workers.push(made);
    return made;
  };

  it('draws an 800x400 PNG on the neutral card, every outlet in its colour', async () => {
    const png = await decodePng(await drawChart(chart));
    expect([png.width, png.height]).toEqual([800, 400]);
    expect(pixelsOf(png, BACKGROUND)).toBeGreaterThan(png.width * png.height * 0.5);
    expect(inkShare(png)).toBeGreaterThan(0.05);
    for (const series of chart.series) expect(pixelsOf(png, series.colour), series.name).toBeGreaterThan(100);
  });

  it('a bar twice as tall takes twice the colour: the picture draws the data', async () => {
    const colour = chart.series[0]!.colour;
    const counts = chart.labels.map((_, i) => (i === 5 ? 1 : i === 20 ? 2 : 0));
    const png = await decodePng(
      await drawChart({
        ...chart,
        series: [{ ...chart.series[0]!, counts }],
        marker: undefined,
        note: undefined,
      }),
    );
    // Bar 5 is left of the middle, bar 20 right of it; the legend's box (top left) is above row 150.
    const inColumns = (from: number, to: number) => {
      let count = 0;
      for (let y = 150; y < png.height; y++)
        for (let x = from; x < to; x++) {
          const at = (y * png.width + x) * 4;
          const hex = `#${[0, 1, 2].map((k) => png.pixels[at + k]!.toString(16).padStart(2, '0')).join('')}`;
          if (hex.toUpperCase() === colour) count += 1;
        }
      return count;
    };
    const low = inColumns(0, png.width / 2);
    const high = inColumns(png.width / 2, png.width);
    expect(low).toBeGreaterThan(100);
    expect(high / low).toBeGreaterThan(1.8);
    expect(high / low).toBeLessThan(2.2);
  });

  it("/about's strip is 800x200", async () => {
    const png = await decodePng(await drawChart(corpusChart(engine.articles())!));
    expect([png.width, png.height]).toEqual([800, 200]);
    expect(inkShare(png)).toBeGreaterThan(0.02);
  });

  it('the chart worker draws the same picture off this thread, and keeps it for the next page', async () => {
    const charts = worker();
    const first = await charts.render(chart);
    expect(Buffer.from(first).equals(await drawChart(chart))).toBe(true);
    expect(await charts.render(chart)).toBe(first);
    const unkept = worker({ keep: 0 });
    const again = await unkept.render(chart);
    expect(again).not.toBe(await unkept.render(chart));
  });

  it('a chart that cannot be drawn fails alone; one that takes too long ends the worker, and the next chart gets a new one', async () => {
    const charts = worker({ timeoutMs: 1 });
    await expect(charts.render(chart)).rejects.toBeInstanceOf(ChartError);
    const patient = worker();
    await expect(patient.render({ ...chart, width: 0, height: -1 })).rejects.toBeInstanceOf(ChartError);
    expect((await decodePng(await patient.render(chart))).width).toBe(800);
  });

  it('the worker starts no chart while a search is under way, and draws it once the search ends', async () => {
    const charts = worker({ keep: 0 });
    await charts.render(chart);
    let drawn = false;
    const ended = searchBegun();
    const waiting = charts.render(chart).then((png) => {
      drawn = true;
      return png;
    });
    try {
      // Far longer than the chart takes (tens of milliseconds), far shorter than the worker's patience.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(drawn).toBe(false);
    } finally {
      ended();
    }
    expect((await decodePng(await waiting)).width).toBe(800);
  });

  it('a search that never ends keeps a chart back for CHART_PATIENCE_MS at most', async () => {
    const charts = worker({ keep: 0, yieldTo: new Int32Array(new SharedArrayBuffer(4)).fill(1) });
    const started = performance.now();
    expect((await decodePng(await charts.render(chart))).width).toBe(800);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
  });
});

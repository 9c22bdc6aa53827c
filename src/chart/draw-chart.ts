import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartItem,
  Legend,
  LinearScale,
  type Plugin,
  SubTitle,
  Title,
} from 'chart.js';
import type { BarChart } from './bar-chart.ts';
import { BACKGROUND, GRID, INK, MUTED_INK } from './palette.ts';

/** The one font every chart is drawn in, shipped in `font/` (SIL Open Font License), never the system's. */
export const FONT_FAMILY = 'Noto Sans';

/** Type sizes in pixels: a chart 800 pixels wide is shown about 360 wide on a phone, where 20 reads as 9. */
const TYPE = { title: 30, subtitle: 20, text: 20, note: 18, compactTitle: 24 } as const;

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Title, SubTitle);
let fontsRegistered = false;

/** Registers the bundled font, once per thread (Skia's font table is per process; registering again is harmless). */
function registerFont(): void {
  if (fontsRegistered) return;
  for (const face of ['NotoSans-Regular.ttf', 'NotoSans-Bold.ttf']) {
    const path = fileURLToPath(new URL(`./font/${face}`, import.meta.url));
    if (!GlobalFonts.registerFromPath(path, FONT_FAMILY))
      throw new Error(`cannot read the chart font ${path}`);
  }
  fontsRegistered = true;
}

/**
 * Draws `chart` as a PNG of its size: stacked bars on a neutral light card, the bundled font, the
 * colour-blind-safe palette, the marked bar's dashed line and label, the note under the axis.
 */
export async function drawChart(
  chart: BarChart,
  hooks: {
    /** Called between drawing and encoding (the chart worker waits there for searches to end). */
    beforeEncoding?: () => void;
  } = {},
): Promise<Buffer> {
  registerFont();
  const canvas = createCanvas(chart.width, chart.height);
  const context = canvas.getContext('2d');
  context.lang = 'en';
  const rendered = new Chart(context as unknown as ChartItem, configuration(chart, context));
  try {
    hooks.beforeEncoding?.();
    // Encoded on this thread (the chart worker's, whose priority is lowered), not on libuv's pool.
    return canvas.toBuffer('image/png');
  } finally {
    rendered.destroy();
  }
}

function configuration(chart: BarChart, context: SKRSContext2D): ChartConfiguration<'bar'> {
  const compact = chart.compact ?? false;
  const font = (size: number, weight: 'normal' | 'bold' = 'normal') => ({
    family: FONT_FAMILY,
    size,
    weight,
  });
  const titleSize = compact ? TYPE.compactTitle : TYPE.title;
  return {
    type: 'bar',
    data: {
      labels: chart.labels,
      datasets: chart.series.map((series) => ({
        label: series.name,
        data: series.counts,
        backgroundColor: series.colour,
        // A thin line of the background between stacked parts, so neighbours never merge.
        borderColor: BACKGROUND,
        borderWidth: { top: chart.series.length > 1 ? 1 : 0 },
        borderSkipped: false,
        barPercentage: 0.92,
        categoryPercentage: 0.92,
      })),
    },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      events: [],
      color: INK,
      font: font(TYPE.text),
      layout: { padding: { left: 18, right: 24, top: 14, bottom: chart.note ? 34 : 12 } },
      plugins: {
        title: {
          display: true,
          text: fitToWidth(context, chart.title, `bold ${titleSize}px "${FONT_FAMILY}"`, chart.width - 48),
          align: 'start',
          color: INK,
          font: font(titleSize, 'bold'),
          padding: { top: 0, bottom: compact ? 2 : 4 },
        },
        subtitle: {
          display: !compact || chart.subtitle.length > 0,
          text: fitToWidth(context, chart.subtitle, `${TYPE.subtitle}px "${FONT_FAMILY}"`, chart.width - 48),
          align: 'start',
          color: MUTED_INK,
          font: font(TYPE.subtitle),
          padding: { bottom: compact ? 4 : 8 },
        },
        legend: {
          display: !compact,
          position: 'top',
          align: 'start',
          labels: { color: INK, font: font(TYPE.text), boxWidth: 18, boxHeight: 18, padding: 14 },
        },
        tooltip: { enabled: false },
      },
      scales: {
        x: {
          stacked: true,
          grid: { display: false },
          border: { color: MUTED_INK },
          ticks: { color: INK, font: font(TYPE.text), maxRotation: 0, autoSkip: true, autoSkipPadding: 14 },
        },
        y: {
          // A strip is read as a sparkline: its subtitle names the busiest period instead of an axis.
          display: !compact,
          stacked: true,
          beginAtZero: true,
          // Room above the tallest bar for the marker's label.
          grace: chart.marker ? '30%' : '5%',
          grid: { color: GRID },
          border: { display: false },
          title: { display: !compact, text: chart.unit, color: MUTED_INK, font: font(TYPE.text) },
          ticks: { color: INK, font: font(TYPE.text), precision: 0, maxTicksLimit: 6 },
        },
      },
    },
    plugins: [background, marker(chart), note(chart)],
  };
}

/** Fills the card: an opaque picture reads the same on Discord's dark and light themes. */
const background: Plugin<'bar'> = {
  id: 'newsdesk-background',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

/** The marked bar (the first report): a dashed line through it, a triangle and the label above. */
function marker(spec: BarChart): Plugin<'bar'> {
  return {
    id: 'newsdesk-marker',
    afterDatasetsDraw(chart) {
      if (!spec.marker || spec.marker.index < 0) return;
      const { ctx, chartArea } = chart;
      const x = chart.scales.x!.getPixelForValue(spec.marker.index);
      ctx.save();
      ctx.strokeStyle = INK;
      ctx.fillStyle = INK;
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 5]);
      ctx.beginPath();
      ctx.moveTo(x, chartArea.top + 26);
      ctx.lineTo(x, chartArea.bottom);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(x - 7, chartArea.top + 14);
      ctx.lineTo(x + 7, chartArea.top + 14);
      ctx.lineTo(x, chartArea.top + 24);
      ctx.closePath();
      ctx.fill();
      ctx.font = `bold ${TYPE.note}px "${FONT_FAMILY}"`;
      ctx.textBaseline = 'bottom';
      const width = ctx.measureText(spec.marker.label).width;
      // The label runs right from the line, or left of it when it would leave the chart.
      const right = x + width + 8 <= chartArea.right;
      ctx.textAlign = right ? 'left' : 'right';
      const labelX = right ? Math.max(chartArea.left, x - 10) : Math.min(chartArea.right, x + 10);
      ctx.fillStyle = BACKGROUND;
      ctx.fillRect(right ? labelX - 3 : labelX - width - 3, chartArea.top - 8, width + 6, TYPE.note + 6);
      ctx.fillStyle = INK;
      ctx.fillText(spec.marker.label, labelX, chartArea.top + 12);
      ctx.restore();
    },
  };
}

/** The note, one line under the axis. */
function note(spec: BarChart): Plugin<'bar'> {
  return {
    id: 'newsdesk-note',
    afterDraw(chart) {
      if (!spec.note) return;
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.font = `${TYPE.note}px "${FONT_FAMILY}"`;
      ctx.fillStyle = MUTED_INK;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'bottom';
      ctx.fillText(
        fitToWidth(ctx as unknown as SKRSContext2D, spec.note, ctx.font, width - 36),
        18,
        height - 8,
      );
      ctx.restore();
    },
  };
}

/** `text`, cut at a word with an ellipsis when it is wider than `width` in `font`. */
function fitToWidth(context: SKRSContext2D, text: string, font: string, width: number): string {
  context.save();
  context.font = font;
  try {
    if (context.measureText(text).width <= width) return text;
    const words = text.split(' ');
    while (words.length > 1) {
      words.pop();
      const cut = `${words.join(' ').replace(/[\s,.;:–-]+$/, '')}…`;
      if (context.measureText(cut).width <= width) return cut;
    }
    let cut = text;
    while (cut.length > 1 && context.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
    return `${cut}…`;
  } finally {
    context.restore();
  }
}

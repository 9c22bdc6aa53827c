import { type BarChart, barTotals, chartTotal } from './bar-chart.ts';

/** Discord's limit on an attachment's description (its alt text). */
export const ALT_TEXT_LIMIT = 1024;

/**
 * The chart in words, for the attachment's alt text (what a screen reader says instead of the
 * picture): title, what it counts, each part's total, then every bar that is not empty, the mark and
 * the note. When the bars do not fit in Discord's 1,024 characters, the busiest ones are named instead.
 */
export function describeChart(chart: BarChart): string {
  const total = chartTotal(chart);
  const parts = chart.series.map((series) => `${series.name} ${series.counts.reduce((a, b) => a + b, 0)}`);
  const bars = barTotals(chart)
    .map((count, index) => ({ label: chart.labels[index]!, count }))
    .filter((bar) => bar.count > 0);
  const head = [
    `Bar chart: ${chart.title}.`,
    `${chart.subtitle}.`,
    chart.series.length > 1 ? `Totals: ${parts.join(', ')} (${total} in all).` : `${total} in all.`,
  ];
  const tail = [
    ...(chart.marker ? [`${chart.marker.label}.`] : []),
    ...(chart.note ? [chart.note.endsWith('.') ? chart.note : `${chart.note}.`] : []),
  ];
  const every = `Bars: ${bars.map((bar) => `${bar.label} ${bar.count}`).join(', ')}.`;
  const busiest = [...bars].sort((a, b) => b.count - a.count).slice(0, 5);
  const some = `Busiest: ${busiest.map((bar) => `${bar.label} ${bar.count}`).join(', ')}.`;
  for (const middle of [every, some, '']) {
    const text = [...head, middle, ...tail].filter(Boolean).join(' ');
    if (text.length <= ALT_TEXT_LIMIT) return text;
  }
  return `${[...head, ...tail].join(' ').slice(0, ALT_TEXT_LIMIT - 1)}…`;
}

import { timelineChart } from '../chart/timeline-chart.ts';
import { periodOf } from './answer-question.ts';
import { type ChartContext, withChart } from './chart-attachment.ts';
import type { ReplyPayload } from './incoming.ts';
import type { EngineView } from './library-view.ts';
import { renderTimeline, type TimelineView } from './render/timeline.ts';

/**
 * What `/timeline`, its page buttons and an answer's Timeline button do: build the timeline and show one
 * page, with the chart of its dated articles when `charts` is given (every page shows the same chart).
 */
export async function showTimeline(
  engine: EngineView,
  request: { topic: string; page: number } & TimelineView,
  charts?: ChartContext,
): Promise<ReplyPayload> {
  const view: TimelineView = {
    ...(request.since ? { since: request.since } : {}),
    ...(request.until ? { until: request.until } : {}),
  };
  const period = periodOf(view);
  const timeline = await engine.timelineAsync(request.topic, period ? { period } : {});
  const payload = renderTimeline(timeline, request.page, view);
  if (!charts) return payload;
  const nothing =
    timeline.undated.length > 0
      ? 'No chart: none of these articles is dated, so there is nothing to draw.'
      : 'No chart: there is nothing to draw.';
  return withChart(payload, timelineChart(timeline, view), charts, nothing);
}

import { periodOf } from './answer-question.ts';
import type { ReplyPayload } from './incoming.ts';
import type { EngineView } from './library-view.ts';
import { renderTimeline, type TimelineView } from './render/timeline.ts';

/** What `/timeline`, its page buttons and an answer's Timeline button do: build the timeline and show one page. */
export async function showTimeline(
  engine: EngineView,
  request: { topic: string; page: number } & TimelineView,
): Promise<ReplyPayload> {
  const view: TimelineView = {
    ...(request.since ? { since: request.since } : {}),
    ...(request.until ? { until: request.until } : {}),
  };
  const period = periodOf(view);
  const timeline = await engine.timelineAsync(request.topic, period ? { period } : {});
  return renderTimeline(timeline, request.page, view);
}

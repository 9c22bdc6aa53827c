// The chart worker thread: draws the charts it is sent (`chart-renderer.ts`), one at a time, so that
// drawing and encoding a PNG never holds up the thread that answers questions.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ChartReply, ChartRequest, ChartWorkerData } from './chart-protocol.ts';
import { drawChart } from './draw-chart.ts';

const port = parentPort;
if (!port) throw new Error('chart-worker.ts runs on a worker thread (see chart-renderer.ts)');

/** The niceness of the drawing thread: the lowest priority, under every thread that answers questions. */
export const CHART_NICENESS = 19;

/**
 * Lowers this thread's priority alone, so that on a busy machine a chart waits for answers rather than
 * answers for a chart. Linux gives each thread its own niceness: `setpriority` with the thread's id
 * (from /proc/thread-self, which names the reading thread) changes that thread only. Elsewhere, or where
 * it is refused, the worker keeps the process's priority.
 */
function yieldToAnswers(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, CHART_NICENESS);
  } catch {
    // Not Linux, or not permitted: charts are drawn at the process's priority.
  }
}

yieldToAnswers();

/**
 * The longest a chart waits for searches to end before it is drawn anyway, so that a steady stream of
 * questions cannot keep a reply's chart back past the renderer's time limit.
 */
export const CHART_PATIENCE_MS = 2_000;

const { yieldTo } = workerData as ChartWorkerData;

/**
 * Waits while searches are under way (the count the renderer shares), `until` at the latest. Lowering
 * the thread's priority alone was not enough: on 2 shared cores, /ask's p99 while charts were drawn was
 * still 1.48x its p99 without (1,127 questions each, load 3.5-5.7).
 */
function giveWayToSearches(until: number): void {
  for (;;) {
    const searches = Atomics.load(yieldTo, 0);
    const left = until - performance.now();
    if (searches === 0 || left <= 0) return;
    Atomics.wait(yieldTo, 0, searches, Math.min(left, 50));
  }
}

port.on('message', async (request: ChartRequest) => {
  let reply: ChartReply;
  try {
    const until = performance.now() + CHART_PATIENCE_MS;
    giveWayToSearches(until);
    const png = await drawChart(request.chart, { beforeEncoding: () => giveWayToSearches(until) });
    // A copy of the bytes alone, so that the transfer hands over exactly them.
    const bytes = new Uint8Array(png);
    reply = { id: request.id, png: bytes };
    port.postMessage(reply, [bytes.buffer]);
    return;
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});

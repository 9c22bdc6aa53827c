// The chart worker thread: draws the charts it is sent (`chart-renderer.ts`), one at a time, so that
// drawing and encoding a PNG never holds up the thread that answers questions.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ChartReply, ChartRequest } from './chart-protocol.ts';
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

port.on('message', async (request: ChartRequest) => {
  let reply: ChartReply;
  try {
    const png = await drawChart(request.chart);
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

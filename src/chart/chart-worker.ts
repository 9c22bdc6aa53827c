// The chart worker thread: draws the charts it is sent (`chart-renderer.ts`), one at a time, so that
// drawing and encoding a PNG never holds up the thread that answers questions.
import { parentPort } from 'node:worker_threads';
import type { ChartReply, ChartRequest } from './chart-protocol.ts';
import { drawChart } from './draw-chart.ts';

const port = parentPort;
if (!port) throw new Error('chart-worker.ts runs on a worker thread (see chart-renderer.ts)');

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

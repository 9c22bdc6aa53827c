import type { KeyObject } from 'node:crypto';
import { request } from 'node:http';
import { pingBody } from './interaction-bodies.ts';
import { signedHeaders } from './signed-requests.ts';

export interface PingRound {
  sent: number;
  /** PINGs answered 200 with a PONG. */
  answered: number;
  /** Other statuses and failures, by what they were (`503`, `timeout`, `ECONNRESET`…). */
  failures: Map<string, number>;
  /** Milliseconds from sending to the whole answer, of the PINGs answered. */
  latenciesMs: number[];
}

let counter = 0;

/**
 * Sends `count` signed PINGs one after another, each on a connection of its own (as from Discord,
 * whose requests come over many connections), each given `timeoutMs` to be answered.
 */
export async function sendGenuinePings(
  port: number,
  key: KeyObject,
  count: number,
  timeoutMs = 5_000,
): Promise<PingRound> {
  const round: PingRound = { sent: count, answered: 0, failures: new Map(), latenciesMs: [] };
  for (let i = 0; i < count; i++) {
    const body = Buffer.from(pingBody(1_000_000 + process.pid * 1000 + counter++));
    const started = performance.now();
    const outcome = await new Promise<string>((resolve) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port,
          path: '/interactions',
          method: 'POST',
          agent: false,
          headers: { ...signedHeaders(key, body), 'content-length': body.length },
          timeout: timeoutMs,
        },
        (incoming) => {
          let text = '';
          incoming.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          incoming.on('end', () =>
            resolve(
              incoming.statusCode === 200 && text.includes('"type":1') ? 'ok' : String(incoming.statusCode),
            ),
          );
          incoming.on('error', () => resolve('aborted'));
        },
      );
      outgoing.on('timeout', () => {
        outgoing.destroy();
        resolve('timeout');
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      outgoing.end(body);
    });
    if (outcome === 'ok') {
      round.answered += 1;
      round.latenciesMs.push(performance.now() - started);
    } else {
      round.failures.set(outcome, (round.failures.get(outcome) ?? 0) + 1);
    }
  }
  return round;
}

/** The p-th percentile (0-100) of `values`, or NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

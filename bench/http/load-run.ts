import autocannon from 'autocannon';
import { DEFAULT_MAX_REQUESTS_PER_CONNECTION } from '../../src/transports/http/server.ts';
import type { PresignedRequest } from './signed-requests.ts';

/** What a genuine request's response was. */
export type Verdict = 'ok' | 'deferred' | 'wrong';

export interface LoadRunOptions {
  url: string;
  /** Pre-signed requests, taken in order by all connections from one shared cursor. */
  pool: PresignedRequest[];
  connections: number;
  /** Seconds. */
  duration: number;
  /** Judges the 200 response to a genuine request. */
  judge: (body: string) => Verdict;
}

export interface LoadRunResult {
  /** Seconds actually measured. */
  seconds: number;
  genuine: number;
  /** Genuine requests answered as expected, per second. */
  okPerSecond: number;
  /** Of genuine requests, in ms. */
  p50: number;
  p99: number;
  /** Genuine requests answered wrongly (status or body), plus connection errors and timeouts. */
  errors: number;
  /** Genuine requests answered with a deferred response instead of the answer. */
  deferred: number;
  forgeriesSent: number;
  /** Forged requests answered with a 2xx: must be zero. */
  forgeriesAccepted: number;
  /** Forged requests refused with something other than 401. */
  forgeriesOtherStatus: number;
  /** Requests sent a second time because the pool ran out (refused as replays, so counted as errors). */
  repeats: number;
  /** First few wrong answers, for the report. */
  samples: string[];
}

/**
 * Drives one endpoint with autocannon over a pool of pre-signed requests, so the generator only frames
 * prepared bytes. Latency percentiles are computed over genuine requests
 * only (autocannon's own histogram mixes in the fast 401s).
 */
export function runLoad(options: LoadRunOptions): Promise<LoadRunResult> {
  const result: LoadRunResult = {
    seconds: 0,
    genuine: 0,
    okPerSecond: 0,
    p50: 0,
    p99: 0,
    errors: 0,
    deferred: 0,
    forgeriesSent: 0,
    forgeriesAccepted: 0,
    forgeriesOtherStatus: 0,
    repeats: 0,
    samples: [],
  };
  const latencies: number[] = [];
  let ok = 0;
  // autocannon calls a request's onResponse and then, synchronously, emits `response` with its latency.
  let lastWasGenuine = false;

  const record = (request: PresignedRequest, status: number, body: string): void => {
    lastWasGenuine = request.forgery === null;
    if (request.forgery !== null) {
      result.forgeriesSent += 1;
      if (status >= 200 && status < 300) result.forgeriesAccepted += 1;
      else if (status !== 401) result.forgeriesOtherStatus += 1;
      return;
    }
    result.genuine += 1;
    const verdict = status === 200 ? options.judge(body) : 'wrong';
    if (verdict === 'ok') ok += 1;
    else if (verdict === 'deferred') result.deferred += 1;
    else {
      result.errors += 1;
      if (result.samples.length < 3) result.samples.push(`${status} ${body.slice(0, 200)}`);
    }
  };

  // One cursor for all connections: however unevenly the server serves them, no request goes twice
  // until the whole pool has.
  let cursor = 0;
  const template: autocannon.Request = {
    method: 'POST',
    path: '/interactions',
    setupRequest: (request, context) => {
      const next = options.pool[cursor % options.pool.length]!;
      if (cursor >= options.pool.length) result.repeats += 1;
      cursor += 1;
      context.current = next;
      return { ...request, headers: next.headers, body: next.body };
    },
    onResponse: (status, body, context) => record(context.current as PresignedRequest, status, body),
  };

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        pipelining: 1,
        // The endpoint closes a keep-alive connection after this many requests (Connection: close) and
        // Node answers 503 to any sent after; autocannon ignores the header, so it reconnects itself, as an
        // HTTP client honouring the header would. It drops the response it reconnects on from its counts.
        reconnectRate: DEFAULT_MAX_REQUESTS_PER_CONNECTION,
        duration: options.duration,
        timeout: 10,
        requests: [template],
      },
      (error, summary) => {
        if (error) {
          reject(error);
          return;
        }
        latencies.sort((a, b) => a - b);
        result.seconds = summary.duration;
        result.p50 = percentile(latencies, 0.5);
        result.p99 = percentile(latencies, 0.99);
        // autocannon counts timeouts among its errors already.
        result.errors += summary.errors;
        result.okPerSecond = ok / summary.duration;
        resolve(result);
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => {
      if (lastWasGenuine) latencies.push(ms);
    });
  });
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

import autocannon from 'autocannon';
import type { PresignedRequest } from './signed-requests.ts';

/** What a genuine request's response was. */
export type Verdict = 'ok' | 'deferred' | 'wrong';

export interface LoadRunOptions {
  url: string;
  /** One pre-signed stream per connection. */
  streams: PresignedRequest[][];
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
  /** Requests sent a second time because a connection ran out of its pre-signed stream. */
  repeats: number;
  /** First few wrong answers, for the report. */
  samples: string[];
}

/**
 * Drives one endpoint with autocannon: each connection cycles through its own pre-signed stream, so
 * the generator only writes prepared bytes. Latency percentiles are computed over genuine requests
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

  const toRequests = (stream: PresignedRequest[]): autocannon.Request[] =>
    stream.map((request) => {
      let sent = 0;
      return {
        method: 'POST',
        path: '/interactions',
        headers: request.headers,
        body: request.body,
        onResponse: (status, body) => {
          sent += 1;
          if (sent > 1) result.repeats += 1;
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
        },
      };
    });

  let next = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.streams.length,
        pipelining: 1,
        duration: options.duration,
        timeout: 10,
        // Replaced per connection in setupClient; autocannon deep-copies this option for every client.
        requests: [{ method: 'POST', path: '/interactions' }],
        setupClient: (client) =>
          client.setRequests(toRequests(options.streams[next++ % options.streams.length] ?? [])),
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

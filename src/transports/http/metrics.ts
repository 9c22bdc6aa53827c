/** What became of a request, as counted in `newsdesk_http_requests_total{outcome}`. */
export type Outcome =
  /** Answered in the HTTP response itself. */
  | 'answered'
  /** Acknowledged with a deferred response; the answer follows through the webhook. */
  | 'deferred'
  /** The command refused the user (no permission, rate limited, bad option) with a private message. */
  | 'refused'
  /** The command failed; the user got a generic private apology. */
  | 'failed'
  /** An interaction the bot does not handle (a select menu, a modal), answered with a private note. */
  | 'ignored'
  | 'unauthorized'
  | 'stale'
  | 'replayed'
  | 'too_large'
  | 'unsupported_media_type'
  | 'bad_request'
  /** The client went away before its body was complete. */
  | 'aborted'
  /** Refused for want of capacity: too many connections, or too many unverified bytes in memory. */
  | 'overloaded';

/** The corpus figures exported as gauges, read at scrape time. */
export interface CorpusFigures {
  version: string;
  articles: number;
  passages: number;
  loadedAt: Date;
  reloads: number;
}

/** Latency buckets in seconds: the 3-second interaction deadline sits above the last one. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

/**
 * Label sets kept before new ones are folded into `other`. Command names come from signed payloads,
 * but a bound keeps a misbehaving client from growing the exposition without limit.
 */
const MAX_SERIES = 500;

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

/** Counters and histograms of the HTTP endpoint, rendered as Prometheus text exposition (version 0.0.4). */
export class EndpointMetrics {
  /** Counts by command and outcome; label values are escaped only when rendered. */
  readonly #requests = new Map<string, { command: string; outcome: Outcome; count: number }>();
  readonly #latency = new Map<string, Histogram>();

  /** Counts one request; `command` is `none` when the request was refused before it was read. */
  record(command: string, outcome: Outcome, seconds: number): void {
    let key = `${command}\u0000${outcome}`;
    let counter = this.#requests.get(key);
    if (!counter) {
      if (this.#requests.size >= MAX_SERIES) {
        command = 'other';
        key = `${command}\u0000${outcome}`;
      }
      counter = this.#requests.get(key) ?? { command, outcome, count: 0 };
      this.#requests.set(key, counter);
    }
    counter.count += 1;

    let histogram = this.#latency.get(command);
    if (!histogram) {
      if (this.#latency.size >= MAX_SERIES) command = 'other';
      histogram = this.#latency.get(command) ?? { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.#latency.set(command, histogram);
    }
    const index = BUCKETS.findIndex((bound) => seconds <= bound);
    if (index >= 0) histogram.buckets[index] = (histogram.buckets[index] ?? 0) + 1;
    histogram.sum += seconds;
    histogram.count += 1;
  }

  /** The whole exposition, corpus gauges included. */
  render(corpus: CorpusFigures): string {
    const lines: string[] = [];
    lines.push('# HELP newsdesk_http_requests_total Interaction requests by command and outcome.');
    lines.push('# TYPE newsdesk_http_requests_total counter');
    for (const { command, outcome, count } of this.#requests.values()) {
      lines.push(`newsdesk_http_requests_total{${labels({ command, outcome })}} ${count}`);
    }

    lines.push(
      '# HELP newsdesk_http_request_duration_seconds Time from request to HTTP response, by command.',
    );
    lines.push('# TYPE newsdesk_http_request_duration_seconds histogram');
    for (const [command, histogram] of this.#latency) {
      const key = labels({ command });
      let cumulative = 0;
      BUCKETS.forEach((bound, i) => {
        cumulative += histogram.buckets[i] ?? 0;
        lines.push(`newsdesk_http_request_duration_seconds_bucket{${key},le="${bound}"} ${cumulative}`);
      });
      lines.push(`newsdesk_http_request_duration_seconds_bucket{${key},le="+Inf"} ${histogram.count}`);
      lines.push(`newsdesk_http_request_duration_seconds_sum{${key}} ${histogram.sum}`);
      lines.push(`newsdesk_http_request_duration_seconds_count{${key}} ${histogram.count}`);
    }

    lines.push('# HELP newsdesk_corpus_articles Articles in the corpus being served.');
    lines.push('# TYPE newsdesk_corpus_articles gauge');
    lines.push(`newsdesk_corpus_articles ${corpus.articles}`);
    lines.push('# HELP newsdesk_corpus_passages Passages indexed in the corpus being served.');
    lines.push('# TYPE newsdesk_corpus_passages gauge');
    lines.push(`newsdesk_corpus_passages ${corpus.passages}`);
    lines.push('# HELP newsdesk_corpus_info The version (content hash) of the corpus being served.');
    lines.push('# TYPE newsdesk_corpus_info gauge');
    lines.push(`newsdesk_corpus_info{${labels({ version: corpus.version })}} 1`);
    lines.push('# HELP newsdesk_corpus_loaded_timestamp_seconds When the corpus being served was loaded.');
    lines.push('# TYPE newsdesk_corpus_loaded_timestamp_seconds gauge');
    lines.push(`newsdesk_corpus_loaded_timestamp_seconds ${corpus.loadedAt.getTime() / 1000}`);
    lines.push('# HELP newsdesk_corpus_reloads_total Corpus swaps this process has served since it started.');
    lines.push('# TYPE newsdesk_corpus_reloads_total counter');
    lines.push(`newsdesk_corpus_reloads_total ${corpus.reloads}`);
    return `${lines.join('\n')}\n`;
  }
}

/** `name="value",…` with values escaped as the exposition format requires. */
function labels(values: Record<string, string>): string {
  return Object.entries(values)
    .map(
      ([name, value]) =>
        `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
    )
    .join(',');
}

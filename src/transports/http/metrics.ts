import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

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
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Label sets kept before new ones are folded into `other`. Command names come from signed payloads,
 * but a bound keeps a misbehaving client from growing the exposition without limit.
 */
const MAX_SERIES = 500;

/**
 * The HTTP endpoint's metrics in a prom-client registry of their own: requests by command and outcome,
 * latency by command, the corpus being served (read at scrape time), and prom-client's process
 * metrics (event-loop lag, heap, garbage-collection pauses, CPU, open handles) that operators expect.
 */
export class EndpointMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: 'newsdesk_http_requests_total',
    help: 'Interaction requests by command and outcome.',
    labelNames: ['command', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly #latency = new Histogram({
    name: 'newsdesk_http_request_duration_seconds',
    help: 'Time from request to HTTP response, by command.',
    labelNames: ['command'] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  readonly #requestSeries = new Set<string>();
  readonly #latencySeries = new Set<string>();
  #corpus: CorpusFigures | undefined;

  constructor(options: { processMetrics?: boolean } = {}) {
    const corpus = () => this.#corpus;
    const gauge = (name: string, help: string, value: (figures: CorpusFigures) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const figures = corpus();
          if (figures) this.set(value(figures));
        },
      });
    gauge('newsdesk_corpus_articles', 'Articles in the corpus being served.', (c) => c.articles);
    gauge('newsdesk_corpus_passages', 'Passages indexed in the corpus being served.', (c) => c.passages);
    new Gauge({
      name: 'newsdesk_corpus_info',
      help: 'The version (content hash) of the corpus being served.',
      labelNames: ['version'] as const,
      registers: [this.registry],
      collect() {
        const figures = corpus();
        this.reset();
        if (figures) this.set({ version: figures.version }, 1);
      },
    });
    gauge(
      'newsdesk_corpus_loaded_timestamp_seconds',
      'When the corpus being served was loaded.',
      (c) => c.loadedAt.getTime() / 1000,
    );
    new Counter({
      name: 'newsdesk_corpus_reloads_total',
      help: 'Corpus swaps this process has served since it started.',
      registers: [this.registry],
      collect() {
        const figures = corpus();
        this.reset();
        if (figures) this.inc(figures.reloads);
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts one request; `command` is `none` when the request was refused before it was read. */
  record(command: string, outcome: Outcome, seconds: number): void {
    const requestKey = `${command}\u0000${outcome}`;
    const counted = bounded(this.#requestSeries, requestKey) ? command : 'other';
    this.#requests.inc({ command: counted, outcome });
    const timed = bounded(this.#latencySeries, command) ? command : 'other';
    this.#latency.observe({ command: timed }, seconds);
  }

  /** The whole exposition (Prometheus text format), with `corpus` as the corpus gauges' values. */
  render(corpus: CorpusFigures): Promise<string> {
    this.#corpus = corpus;
    return this.registry.metrics();
  }

  /** The `Content-Type` of `render`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Whether `key` is, or may become, one of at most MAX_SERIES kept label sets. */
function bounded(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return true;
  if (seen.size >= MAX_SERIES) return false;
  seen.add(key);
  return true;
}

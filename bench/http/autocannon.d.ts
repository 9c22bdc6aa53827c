// The part of autocannon 9's programmatic API the HTTP benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called with each response to this request, before the client sends its next one. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }

    interface Client extends EventEmitter {
      /** Replaces the requests this connection cycles through (buffers are built once, here). */
      setRequests(requests: Request[]): void;
    }

    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      requests?: Request[];
      setupClient?: (client: Client) => void;
    }

    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      requests: Stats & { sent: number };
      latency: Stats;
      throughput: Stats;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      /** Seconds. */
      duration: number;
      start: Date;
      finish: Date;
    }

    interface Instance extends EventEmitter {
      on(
        event: 'response',
        listener: (client: Client, status: number, bytes: number, ms: number) => void,
      ): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
      stop(): void;
    }
  }

  function autocannon(
    options: autocannon.Options,
    done: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export default autocannon;
}

// The part of autocannon 9's programmatic API the HTTP benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each send; returns the request to send. `context` belongs to the connection. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      /** Called with each response to this request, before the client sends its next one. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      reconnectRate?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      requests?: Request[];
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

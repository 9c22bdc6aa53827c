/** Messages from the endpoints' process to the load generator. */
export type ChildMessage =
  | {
      kind: 'ready';
      askPort: number;
      barePort: number;
      /** The real endpoint over the bundled 3-article corpus: the transport's cost without the scale. */
      seedPort: number;
      articles: number;
      passages: number;
      /** Reading the corpus and building its index on a worker thread. */
      startMs: number;
    }
  | { kind: 'cpu'; micros: number };

/** Messages from the load generator to the endpoints' process. */
export type ParentMessage = { kind: 'cpu' } | { kind: 'stop' };

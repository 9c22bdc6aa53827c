import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { makeCorpus } from '../../../src/corpus/load-corpus.ts';
import { Engine } from '../../../src/search/engine.ts';
import { EndpointMetrics } from '../../../src/transports/http/metrics.ts';
import { startEndpoint } from './support/endpoint.ts';
import { close, listen, send } from './support/http-client.ts';

const corpus = {
  version: 'abc',
  articles: 3,
  passages: 52,
  loadedAt: new Date(1_700_000_000_000),
  reloads: 0,
};

describe('EndpointMetrics', () => {
  it('renders cumulative latency buckets, a sum and a count per command', async () => {
    const metrics = new EndpointMetrics();
    metrics.record('ask', 'answered', 0.004);
    metrics.record('ask', 'answered', 0.03);
    metrics.record('ask', 'deferred', 3);
    const text = await metrics.render(corpus);
    expect(text).toContain('newsdesk_http_requests_total{command="ask",outcome="answered"} 2\n');
    expect(text).toContain('newsdesk_http_requests_total{command="ask",outcome="deferred"} 1\n');
    expect(text).toContain('newsdesk_http_request_duration_seconds_bucket{le="0.001",command="ask"} 0\n');
    expect(text).toContain('newsdesk_http_request_duration_seconds_bucket{le="0.005",command="ask"} 1\n');
    expect(text).toContain('newsdesk_http_request_duration_seconds_bucket{le="0.05",command="ask"} 2\n');
    expect(text).toContain('newsdesk_http_request_duration_seconds_bucket{le="2.5",command="ask"} 2\n');
    expect(text).toContain('newsdesk_http_request_duration_seconds_bucket{le="+Inf",command="ask"} 3\n');
    expect(text).toContain('newsdesk_http_request_duration_seconds_count{command="ask"} 3\n');
    expect(text).toContain('newsdesk_corpus_info{version="abc"} 1\n');
    // prom-client's process metrics sit beside the bot's own.
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+$/m);
    expect(text).toMatch(/^process_cpu_seconds_total \S+$/m);
  });

  it('escapes label values and folds label sets past its bound into "other"', async () => {
    const metrics = new EndpointMetrics();
    metrics.record('we"ird\\name\n', 'answered', 0.001);
    for (let i = 0; i < 600; i += 1) metrics.record(`command-${i}`, 'answered', 0.001);
    const text = await metrics.render(corpus);
    expect(text).toContain('command="we\\"ird\\\\name\\n"');
    expect(text).toMatch(/newsdesk_http_requests_total\{command="other",outcome="answered"\} \d+/);
    expect(
      text.split('\n').filter((line) => line.startsWith('newsdesk_http_requests_total{')).length,
    ).toBeLessThanOrEqual(501);
  });
});

describe('GIVEN the endpoint WHEN the library swaps in a new corpus', () => {
  it('THEN /metrics counts the reload and reports the new corpus, and /healthz its version', async () => {
    const endpoint = await startEndpoint({ commands: [] });
    try {
      const before = await send(`${endpoint.base}/metrics`, { method: 'GET' });
      expect(before.text).toContain('newsdesk_corpus_reloads_total 0\n');
      const smaller = makeCorpus(endpoint.library.engine.articles().slice(0, 2));
      endpoint.library.swap(Engine.build(smaller));
      const after = await send(`${endpoint.base}/metrics`, { method: 'GET' });
      expect(after.text).toContain('newsdesk_corpus_reloads_total 1\n');
      expect(after.text).toContain('newsdesk_corpus_articles 2\n');
      expect(after.text).toContain(`newsdesk_corpus_info{version="${smaller.version}"} 1\n`);
      const health = JSON.parse((await send(`${endpoint.base}/healthz`, { method: 'GET' })).text);
      expect(health.corpus).toMatchObject({ version: smaller.version, articles: 2 });
    } finally {
      await endpoint.close();
    }
  });
});

describe('GIVEN the endpoint with a metrics server of its own (METRICS_PORT)', () => {
  it('THEN /metrics is served there, counting the public port’s requests, and the public port answers 404 for it', async () => {
    const metricsServer = createServer();
    const metricsBase = await listen(metricsServer);
    const endpoint = await startEndpoint({ commands: [], server: { metricsServer } });
    try {
      const body = JSON.stringify({ id: '123456', type: 1, application_id: '1234567890' });
      expect((await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body })).status).toBe(
        200,
      );
      const hidden = await send(`${endpoint.base}/metrics`, { method: 'GET' });
      expect(hidden.status).toBe(404);
      expect(hidden.text).not.toContain('newsdesk_');
      const scraped = await send(`${metricsBase}/metrics`, { method: 'GET' });
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('newsdesk_http_requests_total{command="ping",outcome="answered"} 1\n');
      expect(
        (await send(`${metricsBase}/interactions`, { headers: endpoint.discord.headersFor(body), body }))
          .status,
      ).toBe(404);
      expect((await send(`${endpoint.base}/healthz`, { method: 'GET' })).status).toBe(200);
    } finally {
      await endpoint.close();
      await close(metricsServer);
    }
  });
});

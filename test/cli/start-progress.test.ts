import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { grouped, startProgress, summarizeStart } from '../../src/cli/start-progress.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
}

describe('startProgress', () => {
  it('not on a terminal: a plain line every few seconds (here 40 ms), then one summary line', async () => {
    const { stream, text } = capture();
    const progress = startProgress({ label: 'ask', stream, everyMs: 40 });
    progress.reading(0, 21_578);
    await sleep(60);
    progress.reading(12_000, 21_578);
    await sleep(60);
    progress.reading(21_578, 21_578);
    progress.indexing(5_000, 21_578, 11_234);
    await sleep(60);
    progress.ready({ articles: 21_578, passages: 50_233, from: 'built', seconds: 61.27, skipped: [] });
    const lines = text().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(text()).not.toContain('\u001b[');
    expect(lines).toContain('ask: reading the corpus 0/21,578 read · 0 s');
    expect(lines).toContain('ask: reading the corpus 12,000/21,578 read · 0 s');
    expect(lines).toContain('ask: indexing 5,000/21,578 articles, 11,234 passages · 0 s');
    expect(lines.at(-1)).toBe('ask: ready: 21,578 articles, 50,233 passages, index built, in 61.3 s');
  });

  it('prints nothing more once stopped (a start that failed says why itself)', async () => {
    const { stream, text } = capture();
    const progress = startProgress({ label: 'newsdesk', stream, everyMs: 20 });
    progress.reading(1, 3);
    progress.stop();
    const after = text();
    await sleep(60);
    expect(text()).toBe(after);
  });

  it('the summary names skipped files and a cache problem', () => {
    expect(
      summarizeStart({
        articles: 3,
        passages: 52,
        from: 'cache',
        seconds: 0.42,
        skipped: ['notes.doc', 'sub/'],
        cacheNote: 'the index could not be saved to the cache: EACCES',
      }),
    ).toBe(
      'ready: 3 articles, 52 passages, index from the cache, in 0.4 s (2 files not read: notes.doc, sub/; the index could not be saved to the cache: EACCES)',
    );
  });
});

describe('grouped', () => {
  it('groups thousands as toLocaleString("en") does', () => {
    for (const count of [0, 7, 999, 1_000, 20_841, 98_050, 121_938, 1_000_000, 12_345_678]) {
      expect(grouped(count)).toBe(count.toLocaleString('en'));
    }
  });
});

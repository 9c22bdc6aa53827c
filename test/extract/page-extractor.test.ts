import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { NotAnArticleError } from '../../src/extract/extract-article.ts';
import { DEFAULT_PAGE_BOUNDS, PageTooComplexError } from '../../src/extract/page-bounds.ts';
import { PageExtractor, PageNotReadError } from '../../src/extract/page-extractor.ts';
import { nestedPage } from '../support/nested-page.ts';

const extractor = new PageExtractor();
afterAll(() => extractor.close());

/** Bounds that let the attack page through to the extractor, to see the time limit end it. */
const LOOSE = { bounds: { ...DEFAULT_PAGE_BOUNDS, maxDepth: 1000 }, timeLimitMs: 1_000 };

describe('GIVEN pages read on the extraction worker', () => {
  it('THEN a news page reads as it does on this thread', async () => {
    const article = await extractor.extract(
      await readFile('test/fixtures/web/news-article.html', 'utf8'),
      'https://www.channelcourier.example/x',
    );
    expect(article.title).toBe('Dunkirk opens winter shelter for 400 migrants after council vote');
    expect(article.paragraphs).toHaveLength(8);
  });

  it('THEN refusals keep their class: too deep, and not an article (empty, plain text)', async () => {
    await expect(extractor.extract(nestedPage(1500), undefined)).rejects.toBeInstanceOf(PageTooComplexError);
    await expect(extractor.extract('', undefined)).rejects.toThrow(
      'This page holds no article: the page is empty.',
    );
    await expect(extractor.extract('Plain text.\nMore plain text.', undefined)).rejects.toBeInstanceOf(
      NotAnArticleError,
    );
  });

  it('WHEN a page takes longer than the time limit THEN its worker is ended, this thread kept answering, and the next page reads', async () => {
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 50);
    const started = performance.now();
    const slow = extractor.extract(nestedPage(900), undefined, LOOSE);
    const queued = extractor.extract(
      await readFile('test/fixtures/web/harbour-works.html', 'utf8'),
      undefined,
    );
    await expect(slow).rejects.toBeInstanceOf(PageNotReadError);
    await expect(slow).rejects.toThrow(
      'Reading the page took longer than 1 s; it was given up (EXTRACT_TIME_LIMIT_MS).',
    );
    const elapsed = performance.now() - started;
    clearInterval(ticking);
    // 900 nested divs take Readability tens of seconds; the page was given up after about a second,
    // and this thread's timer ran all along.
    expect(elapsed).toBeLessThan(8_000);
    expect(ticks).toBeGreaterThan(5);
    expect((await queued).paragraphs.length).toBeGreaterThan(1);
  });

  it('WHEN the extractor is closed (the bot stopping) THEN the page being read is refused at once', async () => {
    const reading = extractor
      .extract(nestedPage(900), undefined, { ...LOOSE, timeLimitMs: 60_000 })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    await extractor.close();
    expect(await reading).toMatchObject({ message: 'The bot is stopping: the page was not read.' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

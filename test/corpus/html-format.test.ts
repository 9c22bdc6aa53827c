import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusError, loadCorpus } from '../../src/corpus/load-corpus.ts';

const FIXTURES = 'test/fixtures/web';

describe('GIVEN .html files in the corpus folder', () => {
  it('THEN each is read as one article by the extractor: paragraphs without furniture, metadata from the page', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-html-'));
    await copyFile(join(FIXTURES, 'news-article.html'), join(dir, 'dunkirk-shelter.html'));
    // A browser's "Save page" keeps the site's charset: this one is windows-1252.
    await copyFile(join(FIXTURES, 'opengraph-only.html'), join(dir, 'boulogne.htm'));
    await writeFile(join(dir, 'note.md'), '---\ntitle: A note\n---\nOne paragraph.\n');
    const corpus = await loadCorpus(dir);
    expect(corpus.articles.map((a) => a.id)).toEqual(['boulogne', 'dunkirk-shelter', 'note']);
    const dunkirk = corpus.articles.find((a) => a.id === 'dunkirk-shelter')!;
    expect(dunkirk).toMatchObject({
      title: 'Dunkirk opens winter shelter for 400 migrants after council vote',
      publisher: 'The Channel Courier',
      author: 'Claire Vasseur, Tom Ashby',
      published: '2026-11-28T18:30:00+01:00',
      url: 'https://www.channelcourier.example/news/2026/11/dunkirk-opens-winter-shelter-for-400-migrants',
      language: 'en-GB',
    });
    expect(dunkirk.passages.map((p) => p.id)).toEqual(
      Array.from({ length: 8 }, (_, i) => `dunkirk-shelter#${i + 1}`),
    );
    expect(dunkirk.passages.map((p) => p.text).join(' ')).not.toMatch(
      /cookie|Advertisement|Related stories|Photo:/,
    );
    const boulogne = corpus.articles.find((a) => a.id === 'boulogne')!;
    expect(boulogne.passages[0]?.text).toContain("next year's fishing quotas");
  });

  it('THEN a page that holds no article is refused by name, like any invalid file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-html-'));
    await writeFile(join(dir, 'front.html'), await readFile(join(FIXTURES, 'section-front.html')));
    const error = await loadCorpus(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).message).toContain(
      'front.html:1: the page holds no article: no body of several paragraphs was found',
    );
  });
});

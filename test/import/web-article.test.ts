import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseArticleFile } from '../../src/corpus/load-corpus.ts';
import { articleIdForUrl } from '../../src/import/article-id.ts';
import { webArticleFromHtml } from '../../src/import/web-article.ts';

describe('articleIdForUrl', () => {
  it('takes the slug of the last meaningful path segment', () => {
    expect(articleIdForUrl('https://news.example/2026/11/dunkirk-opens-winter-shelter.html', 'x')).toBe(
      'dunkirk-opens-winter-shelter',
    );
    expect(articleIdForUrl('https://news.example/2026/11/27/boulogne-fishermen-block-port/', 'x')).toBe(
      'boulogne-fishermen-block-port',
    );
    expect(articleIdForUrl('https://news.example/news/world-europe-33729000', 'x')).toBe(
      'world-europe-33729000',
    );
    expect(articleIdForUrl('https://news.example/world-europe/33729000/amp', 'x')).toBe(
      'world-europe-33729000',
    );
    expect(articleIdForUrl('https://news.example/Téteghem%20Mayor', 'x')).toBe('teteghem-mayor');
  });

  it('falls back to the headline when the URL has no usable path', () => {
    expect(articleIdForUrl('https://news.example/', 'Mayor of Téteghem threatened')).toBe(
      'mayor-of-teteghem-threatened',
    );
  });
});

describe('webArticleFromHtml', () => {
  it('writes Markdown that the corpus reads back as the same article, url being the link as given', async () => {
    const html = await readFile('test/fixtures/web/news-article.html', 'utf8');
    const link =
      'https://www.channelcourier.example/news/2026/11/dunkirk-opens-winter-shelter-for-400-migrants?utm_source=share';
    const web = await webArticleFromHtml(html, { url: link, fetchedFrom: link });
    expect(web.id).toBe('dunkirk-opens-winter-shelter-for-400-migrants');
    const article = parseArticleFile(web.fileName, web.markdown);
    expect(article).toMatchObject({
      id: web.id,
      title: web.extracted.title,
      publisher: 'The Channel Courier',
      author: 'Claire Vasseur, Tom Ashby',
      published: '2026-11-28T18:30:00+01:00',
      url: link,
      language: 'en-GB',
    });
    expect(article.passages.map((p) => p.text)).toEqual(web.extracted.paragraphs);
  });

  it('reuses the id of an article already holding the canonical URL, so adding it again is a replace', async () => {
    const html = await readFile('test/fixtures/web/news-article.html', 'utf8');
    const known = parseArticleFile(
      'shelter.md',
      '---\ntitle: Shelter\nurl: https://www.channelcourier.example/news/2026/11/dunkirk-opens-winter-shelter-for-400-migrants\n---\nText.\n',
    );
    const web = await webArticleFromHtml(
      html,
      { url: 'https://short.example/abc', fetchedFrom: 'https://short.example/abc' },
      [known],
    );
    expect(web).toMatchObject({ id: 'shelter', fileName: 'shelter.md', alreadyKnown: true });
  });

  it('keeps a headline with quotes and colons intact through the front matter', async () => {
    const paragraphs = Array.from(
      { length: 5 },
      (_, i) =>
        `<p>Paragraph ${i + 1} says enough about the matter to be read as reporting by the extractor here.</p>`,
    );
    const web = await webArticleFromHtml(
      `<html><head><title>Mayor: "we will not back down"</title></head><body><article>${paragraphs.join('')}</article></body></html>`,
      { fileName: 'mayor.html' },
    );
    expect(web.id).toBe('mayor'); // a saved page without a canonical URL is named by its file
    expect(parseArticleFile(web.fileName, web.markdown).title).toBe('Mayor: "we will not back down"');
  });
});

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { extractArticle, NotAnArticleError } from '../../src/extract/extract-article.ts';
import { decodePage } from '../../src/extract/page-dom.ts';

async function fixture(name: string): Promise<string> {
  return decodePage(await readFile(`test/fixtures/web/${name}`), undefined);
}

describe('GIVEN a news page with navigation, ads, JSON-LD, a cookie banner, a share bar and related links', () => {
  it('THEN its metadata comes from JSON-LD NewsArticle first, ahead of OpenGraph and <meta>', async () => {
    const article = extractArticle(
      await fixture('news-article.html'),
      'https://www.channelcourier.example/x',
    );
    expect(article).toMatchObject({
      title: 'Dunkirk opens winter shelter for 400 migrants after council vote',
      publisher: 'The Channel Courier',
      author: 'Claire Vasseur, Tom Ashby',
      published: '2026-11-28T18:30:00+01:00',
      canonicalUrl:
        'https://www.channelcourier.example/news/2026/11/dunkirk-opens-winter-shelter-for-400-migrants',
      language: 'en-GB',
    });
  });

  it('THEN the reporting paragraphs are kept, in order, and the page furniture is not', async () => {
    const { paragraphs } = extractArticle(await fixture('news-article.html'));
    expect(paragraphs).toHaveLength(8);
    expect(paragraphs[0]).toMatch(/^Dunkirk's urban council voted on Friday evening/);
    expect(paragraphs[6]).toMatch(/^"A bed for the winter does not change anyone's plans/);
    expect(paragraphs.at(-1)).toBe(
      'The shelter will be run by the charity Salam with forty volunteers and six paid staff, the council said.',
    );
    const text = paragraphs.join('\n');
    for (const furniture of [
      'cookies', // the cookie banner
      'Advertisement',
      'ferries to Dover', // an ad
      'Share on', // the share bar
      'Volunteers set up camp beds', // the photo caption
      'Related stories',
      'Calais mayor renews threat', // a related link
      'Most read',
      'morning briefing', // the newsletter box
      'Comments',
      'By Claire Vasseur', // the byline: the author is metadata
      'All rights reserved',
      'Subscribe',
    ]) {
      expect(text, furniture).not.toContain(furniture);
    }
  });
});

describe('GIVEN a page with only OpenGraph tags, in windows-1252', () => {
  it('THEN title, site name, date, URL and locale come from OpenGraph, and a profile URL is not taken for an author', async () => {
    const article = extractArticle(await fixture('opengraph-only.html'));
    expect(article).toEqual({
      title: 'Boulogne fishermen block port over quota cuts',
      publisher: 'Littoral Hebdo',
      author: undefined,
      published: '2026-11-27T09:12:00+01:00',
      canonicalUrl: 'https://littoral-hebdo.example/2026/11/27/boulogne-fishermen-block-port/',
      language: 'en-GB',
      paragraphs: expect.any(Array),
    });
    expect(article.paragraphs).toHaveLength(4);
    expect(article.paragraphs[0]).toContain("next year's fishing quotas");
  });
});

describe('GIVEN plain <meta> tags only', () => {
  it('THEN <title>, <meta name=author>, <link rel=canonical>, <html lang> and a date in another format are used', () => {
    const body = Array.from(
      { length: 4 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of a short report on the harbour works, long enough to count as reporting text for the extractor.</p>`,
    ).join('');
    const article = extractArticle(
      `<html lang="EN"><head><title>Harbour works delayed</title><meta name="author" content="A. Writer">` +
        `<meta name="date" content="Mon, 30 Nov 2026 08:15:00 GMT"><link rel="canonical" href="/2026/harbour-works">` +
        `</head><body><article>${body}</article></body></html>`,
      'https://port.example/amp/harbour',
    );
    expect(article).toMatchObject({
      title: 'Harbour works delayed',
      author: 'A. Writer',
      published: '2026-11-30T08:15:00.000Z',
      canonicalUrl: 'https://port.example/2026/harbour-works',
      language: 'en',
      publisher: undefined,
    });
  });
});

describe('GIVEN a page that is not an article (a section front of headline links)', () => {
  it('THEN it is refused in plain words', async () => {
    const html = await fixture('section-front.html');
    expect(() => extractArticle(html)).toThrow(NotAnArticleError);
    expect(() => extractArticle(html)).toThrow(
      'This page does not look like a news article: no body of several paragraphs was found on it.',
    );
  });
});

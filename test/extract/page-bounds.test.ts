import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/extract/extract-article.ts';
import { checkPageBounds, nestingDepth, PageTooComplexError } from '../../src/extract/page-bounds.ts';
import { nestedPage } from '../support/nested-page.ts';

describe('GIVEN a page nested deeper than the bound (1,500 divs around a story, 16 KB)', () => {
  it('THEN it is refused in plain words before it is parsed, in a scan of its text', () => {
    const page = nestedPage(1500);
    const started = performance.now();
    expect(() => extractArticle(page)).toThrow(PageTooComplexError);
    // Before the bound, this page took Readability 27 s (5,000 divs: a stack overflow).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(() => extractArticle(nestedPage(5000))).toThrow(
      'The page nests its elements more than 128 deep (a news page nests a few dozen); it was not read (EXTRACT_MAX_DEPTH).',
    );
  });

  it('THEN a page past the size bound is refused by its length alone', () => {
    expect(() => checkPageBounds(`<p>${'x'.repeat(2000)}</p>`, { maxDepth: 128, maxChars: 1024 })).toThrow(
      'The page is 0 MB of HTML',
    );
  });
});

describe('GIVEN the depth scan', () => {
  it('THEN it counts what the HTML parser builds: implied ends, void and raw-text elements, comments', () => {
    expect(nestingDepth('<html><body><div><p>a<p>b<p>c</div></body></html>')).toBe(4);
    expect(nestingDepth('<ul><li>a<li>b<li>c</ul>')).toBe(2);
    expect(nestingDepth('<div><br><img src=x><hr><input></div>')).toBe(1);
    expect(
      nestingDepth(`<div><script>${'<div>'.repeat(500)}</script><style>${'<b>'.repeat(500)}</StYlE></div>`),
    ).toBe(1);
    expect(nestingDepth(`<!-- ${'<div>'.repeat(500)} --><div></div>`)).toBe(1);
    expect(nestingDepth('<div><span></div></span>')).toBe(2);
  });

  it('THEN every real page among the fixtures is well within the bound, and reads as before', async () => {
    const pages = (await readdir('test/fixtures/web')).filter((name) => name.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(2);
    for (const name of pages) {
      const depth = nestingDepth(await readFile(`test/fixtures/web/${name}`, 'utf8'));
      expect(depth, name).toBeGreaterThan(3);
      expect(depth, name).toBeLessThan(40);
    }
    expect(extractArticle(nestedPage(100)).paragraphs).toHaveLength(4);
  });
});

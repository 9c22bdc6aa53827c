import { describe, expect, it } from 'vitest';
import { ARTICLE_EXTENSIONS, CORPUS_FORMATS, formatOf } from '../../src/corpus/formats/index.ts';
import { isCorpusFile, parseArticleFile } from '../../src/corpus/load-corpus.ts';

describe('the corpus format table', () => {
  it('gives every extension to exactly one format', () => {
    const extensions = CORPUS_FORMATS.flatMap((format) => format.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const extension of extensions) expect(extension).toMatch(/^\.[a-z0-9]+$/);
  });

  it('derives the loader, the accepted uploads and the dispatch from the same list', () => {
    expect(ARTICLE_EXTENSIONS).toEqual(['.md', '.markdown', '.txt', '.html', '.htm']);
    expect(['a.md', 'a.MARKDOWN', 'a.txt', 'a.html', 'a.jsonl'].map(isCorpusFile)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['a.pdf', 'a.csv', '.a.md'].map(isCorpusFile)).toEqual([false, false, false]);
    expect(formatOf('wire.jsonl')?.kind).toBe('bulk');
    expect(formatOf('story.Md')?.description).toBe('Markdown with front matter');
  });

  it('refuses a file of no article format instead of reading it as Markdown', () => {
    expect(() => parseArticleFile('story.pdf', '%PDF-1.7')).toThrow(/not an article file \(expected \.md/);
    expect(() => parseArticleFile('wire.jsonl', '{}')).toThrow(/not an article file/);
  });
});

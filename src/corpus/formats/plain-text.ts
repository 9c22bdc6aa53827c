import { basename, extname } from 'node:path';
import { buildArticle } from '../build-article.ts';
import { CorpusError } from '../problems.ts';
import type { ArticleFileFormat } from './format.ts';
import { parseFrontMatterArticle } from './markdown.ts';

/** Plain text: the first line is the headline, the rest the body. Front matter, if it opens with one, is read. */
export const plainText: ArticleFileFormat = {
  kind: 'article',
  extensions: ['.txt'],
  description: 'text with the headline first',
  parse(file, text) {
    const withFrontMatter = parseFrontMatterArticle(file, text);
    if (withFrontMatter) return withFrontMatter;
    const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
    const headlineIndex = lines.findIndex((line) => line.trim() !== '');
    if (headlineIndex < 0) throw new CorpusError([{ file, line: 1, message: 'file is empty' }]);
    return buildArticle(
      basename(file, extname(file)),
      file,
      { title: lines[headlineIndex]!.trim() },
      lines.slice(headlineIndex + 1).join('\n'),
      { file, keyLines: new Map([['title', headlineIndex + 1]]), bodyLine: headlineIndex + 2 },
    );
  },
};

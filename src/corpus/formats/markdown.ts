import { basename, extname } from 'node:path';
import type { Article } from '../article.ts';
import { buildArticle, type KeyLines } from '../build-article.ts';
import { readFrontMatter } from '../front-matter.ts';
import { CorpusError, type CorpusProblem } from '../problems.ts';
import type { ArticleFileFormat } from './format.ts';

/**
 * The article in a text that opens with front matter (`---`, `key: value` lines, `---`), or `undefined`
 * when it does not open with a fence. Throws `CorpusError` listing every problem.
 */
export function parseFrontMatterArticle(file: string, text: string): Article | undefined {
  const frontMatter = readFrontMatter(text);
  if (!frontMatter) return undefined;
  const problems: CorpusProblem[] = frontMatter.malformed.map(({ line, text: bad }) => ({
    file,
    line,
    message: bad.startsWith('front matter')
      ? bad
      : `expected "key: value" in front matter, found "${bad.slice(0, 60)}"`,
  }));
  // Null prototype: a `__proto__:` field is a field like any other (and reported as unknown),
  // where on `{}` the assignment would be silently swallowed by the prototype setter.
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const keyLines: KeyLines = new Map();
  for (const field of frontMatter.fields) {
    if (keyLines.has(field.key)) {
      problems.push({ file, line: field.line, message: `field "${field.key}" is given twice` });
    }
    input[field.key] = field.value;
    keyLines.set(field.key, field.line);
  }
  if (frontMatter.fields.length === 0 && problems.length > 0) throw new CorpusError(problems);
  try {
    const article = buildArticle(basename(file, extname(file)), file, input, frontMatter.body, {
      file,
      keyLines,
      bodyLine: frontMatter.bodyLine,
    });
    if (problems.length > 0) throw new CorpusError(problems);
    return article;
  } catch (error) {
    if (error instanceof CorpusError) throw new CorpusError([...problems, ...error.problems]);
    throw error;
  }
}

/** Markdown with front matter; `title` is required. */
export const markdown: ArticleFileFormat = {
  kind: 'article',
  extensions: ['.md', '.markdown'],
  description: 'Markdown with front matter',
  parse(file, text) {
    const article = parseFrontMatterArticle(file, text);
    if (article) return article;
    throw new CorpusError([
      { file, line: 1, message: 'Markdown article must open with front matter (---, title: ..., ---)' },
    ]);
  },
};

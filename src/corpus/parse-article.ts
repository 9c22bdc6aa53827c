import { createHash, type Hash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { z } from 'zod';
import { TimeSlicer } from '../event-loop.ts';
import type { Article, ArticleMeta, Corpus } from './article.ts';
import { chunkArticle } from './chunk.ts';
import { readFrontMatter } from './front-matter.ts';
import { ArticleId, ArticleMetaSchema } from './metadata.ts';
import { CorpusError, type CorpusProblem } from './problems.ts';

/** File endings read as one article each. */
export const ARTICLE_EXTENSIONS = ['.md', '.markdown', '.txt'] as const;

/** Where each metadata key was written, so a schema error points at its line. */
type KeyLines = Map<string, number>;

function toProblems(file: string, error: z.ZodError, keyLines: KeyLines): CorpusProblem[] {
  return error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    if (issue.code === 'unrecognized_keys') {
      return {
        file,
        line: keyLines.get(issue.keys[0] ?? '') ?? 1,
        message: `unknown field "${issue.keys.join('", "')}"`,
      };
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return { file, line: 1, message: `${key} is required` };
    }
    return { file, line: keyLines.get(key) ?? 1, message: `${key} ${issue.message}` };
  });
}

function metaFrom(input: z.infer<typeof ArticleMetaSchema>): ArticleMeta {
  return {
    title: input.title,
    publisher: input.publisher ?? null,
    url: input.url ?? null,
    published: input.published ?? null,
    author: input.author ?? null,
    language: input.language ?? null,
  };
}

/**
 * Builds an article from validated metadata and its body text. Throws `CorpusError` when the metadata
 * is invalid or the body has no reporting paragraph.
 */
export function buildArticle(
  id: string,
  source: string,
  input: Record<string, unknown>,
  body: string,
  where: { file: string; keyLines?: KeyLines; bodyLine?: number; emptyBodyAllowed?: boolean },
): Article {
  const problems: CorpusProblem[] = [];
  const idCheck = ArticleId.safeParse(id);
  if (!idCheck.success)
    problems.push({ file: where.file, line: 1, message: idCheck.error.issues[0]!.message });
  const meta = ArticleMetaSchema.safeParse(input);
  if (!meta.success) problems.push(...toProblems(where.file, meta.error, where.keyLines ?? new Map()));
  if (/\uFFFD/.test(body)) {
    problems.push({ file: where.file, line: where.bodyLine ?? 1, message: 'text is not valid UTF-8' });
  }
  const passages = chunkArticle(id, body);
  if (passages.length === 0 && !where.emptyBodyAllowed) {
    problems.push({
      file: where.file,
      line: where.bodyLine ?? 1,
      message: 'article has no paragraphs of text',
    });
  }
  if (problems.length > 0 || !meta.success) throw new CorpusError(problems);
  return { id, source, ...metaFrom(meta.data), passages };
}

/**
 * Parses one article file: Markdown with front matter (`title` required), or plain text whose first
 * line is the headline. The id is the file name without its extension.
 */
export function parseArticleFile(fileName: string, text: string): Article {
  const extension = extname(fileName).toLowerCase();
  const id = basename(fileName, extname(fileName));
  if (!(ARTICLE_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new CorpusError([
      { file: fileName, line: 1, message: `not an article file (expected ${ARTICLE_EXTENSIONS.join(', ')})` },
    ]);
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') {
    throw new CorpusError([{ file: fileName, line: 1, message: 'file is empty' }]);
  }
  if (text.includes('\u0000')) {
    throw new CorpusError([{ file: fileName, line: 1, message: 'file is binary, not text' }]);
  }
  const frontMatter = readFrontMatter(text);
  if (frontMatter) {
    const problems: CorpusProblem[] = frontMatter.malformed.map(({ line, text: bad }) => ({
      file: fileName,
      line,
      message: bad.startsWith('front matter')
        ? bad
        : `expected "key: value" in front matter, found "${bad.slice(0, 60)}"`,
    }));
    const input: Record<string, unknown> = {};
    const keyLines: KeyLines = new Map();
    for (const field of frontMatter.fields) {
      if (keyLines.has(field.key)) {
        problems.push({ file: fileName, line: field.line, message: `field "${field.key}" is given twice` });
      }
      input[field.key] = field.value;
      keyLines.set(field.key, field.line);
    }
    if (frontMatter.fields.length === 0 && problems.length > 0) throw new CorpusError(problems);
    try {
      const article = buildArticle(id, fileName, input, frontMatter.body, {
        file: fileName,
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
  if (extension !== '.txt') {
    throw new CorpusError([
      {
        file: fileName,
        line: 1,
        message: 'Markdown article must open with front matter (---, title: ..., ---)',
      },
    ]);
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const headlineIndex = lines.findIndex((line) => line.trim() !== '');
  return buildArticle(
    id,
    fileName,
    { title: lines[headlineIndex]!.trim() },
    lines.slice(headlineIndex + 1).join('\n'),
    {
      file: fileName,
      keyLines: new Map([['title', headlineIndex + 1]]),
      bodyLine: headlineIndex + 2,
    },
  );
}

/** Assembles validated articles into a corpus; the version is a hash of everything a reader sees. */
export function makeCorpus(articles: Article[]): Corpus {
  const hash = createHash('sha256');
  for (const article of articles) hashArticle(hash, article);
  return { articles, version: hash.digest('hex').slice(0, 12) };
}

/** `makeCorpus` in slices of a few milliseconds, for large corpora during a reload. */
export async function makeCorpusAsync(articles: Article[]): Promise<Corpus> {
  const hash = createHash('sha256');
  const slicer = new TimeSlicer();
  for (const article of articles) {
    hashArticle(hash, article);
    await slicer.pause();
  }
  return { articles, version: hash.digest('hex').slice(0, 12) };
}

function hashArticle(hash: Hash, article: Article): void {
  const { source: _source, passages, ...meta } = article;
  hash.update(JSON.stringify(meta));
  for (const passage of passages) hash.update(`\u0000${passage.id}\u0000${passage.text}`);
  hash.update('\u0001');
}

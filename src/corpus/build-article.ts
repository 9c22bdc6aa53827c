import type { z } from 'zod';
import type { Article, ArticleMeta } from './article.ts';
import { chunkArticle } from './chunk.ts';
import { ArticleId, ArticleMetaSchema } from './metadata.ts';
import { CorpusError, type CorpusProblem } from './problems.ts';

/** Where each metadata key was written, so a schema error points at its line. */
export type KeyLines = Map<string, number>;

function toProblems(file: string, error: z.ZodError, keyLines: KeyLines): CorpusProblem[] {
  return error.issues.flatMap((issue) => {
    const key = String(issue.path[0] ?? '');
    if (issue.code === 'unrecognized_keys') {
      // One problem per unknown field, on its own line, whatever its name (`__proto__` included).
      return issue.keys.map((unknown) => ({
        file,
        line: keyLines.get(unknown) ?? 1,
        message: `unknown field "${unknown}"`,
      }));
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

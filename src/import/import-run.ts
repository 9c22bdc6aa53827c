import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Article, Corpus } from '../corpus/article.ts';
import { html } from '../corpus/formats/html.ts';
import { CorpusStore, CorpusStoreError } from '../corpus-editing/corpus-store.ts';
import { decodePage } from '../extract/page-dom.ts';
import { FEED_TYPES, FeedFormatError, readFeed } from '../feeds/read-feed.ts';
import type { AddressPolicy } from '../web/address-policy.ts';
import { HTML_TYPES, safeFetch } from '../web/safe-fetch.ts';
import { fetchWebArticle, importRefusal, type WebArticle, webArticleFromHtml } from './web-article.ts';

/** What one `npm run import` did. */
export interface ImportSummary {
  added: string[];
  /** Already in the corpus (same link, canonical URL or id). */
  skipped: number;
  failed: number;
}

export interface ImportOptions extends AddressPolicy {
  /** CORPUS_PATH: the folder articles are written into. */
  folder: string;
  /** The corpus as it is now, for duplicates. */
  current: Corpus;
  /** Where progress lines go. */
  writeLine: (line: string) => void;
}

/**
 * Imports each target (a link to an article, a link to a feed, whose items are each imported, or a
 * saved `.html` file) into the corpus folder, with the same extraction and the same atomic, validated
 * writes as `/corpus add`. An article already in the corpus is skipped, never overwritten.
 */
export async function runImport(targets: readonly string[], options: ImportOptions): Promise<ImportSummary> {
  const store = new CorpusStore({ folder: options.folder });
  const summary: ImportSummary = { added: [], skipped: 0, failed: 0 };
  let known: Article[] = [...options.current.articles];
  const progress = (what: string, target: string) =>
    options.writeLine(
      `[${summary.added.length} added, ${summary.skipped} skipped, ${summary.failed} failed] ${what}: ${target}`,
    );

  const add = async (target: string, read: () => Promise<WebArticle>): Promise<void> => {
    try {
      const article = await read();
      if (article.alreadyKnown || known.some((a) => a.id === article.id)) {
        summary.skipped++;
        progress(`skipped, already in the corpus as ${article.id}`, target);
        return;
      }
      const prepared = await store.prepare(article.fileName, new TextEncoder().encode(article.markdown), {
        articles: known,
        version: options.current.version,
      });
      await store.write(prepared);
      known = [...known, prepared.article];
      summary.added.push(prepared.article.id);
      progress(`added ${prepared.fileName}`, target);
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === undefined) throw error;
      summary.failed++;
      progress(`failed (${reason})`, target);
    }
  };

  for (const target of targets) {
    if (!/^https?:\/\//i.test(target)) {
      if (!html.extensions.includes(extname(target).toLowerCase())) {
        summary.failed++;
        progress('failed (give a link, a feed link or a saved .html page)', target);
        continue;
      }
      await add(target, async () =>
        webArticleFromHtml(decodePage(await readSavedPage(target), undefined), { fileName: target }, known),
      );
      continue;
    }
    let fetched: Awaited<ReturnType<typeof pageOrFeed>>;
    try {
      fetched = await pageOrFeed(target, options);
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === undefined) throw error;
      summary.failed++;
      progress(`failed (${reason})`, target);
      continue;
    }
    if ('html' in fetched) {
      const { html, fetchedFrom } = fetched;
      await add(target, () => webArticleFromHtml(html, { url: target, fetchedFrom }, known));
      continue;
    }
    progress(`feed with ${fetched.items.length} items`, target);
    for (const link of fetched.items) await add(link, () => fetchWebArticle(link, { ...options, known }));
  }
  return summary;
}

/** A saved page that could not be read: missing, a folder, not readable. */
class SavedPageError extends Error {}

const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'a folder, not a saved page',
  EACCES: 'not allowed to read it',
  EPERM: 'not allowed to read it',
};

async function readSavedPage(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new SavedPageError(UNREADABLE[code] ?? `could not be read (${code})`);
  }
}

/** Why a target was not imported, in plain words; undefined for a bug. */
function reasonOf(error: unknown): string | undefined {
  if (
    error instanceof FeedFormatError ||
    error instanceof CorpusStoreError ||
    error instanceof SavedPageError
  )
    return error.message;
  return importRefusal(error)?.message;
}

/** A link's page, or, when it is a feed, the links of its items. */
async function pageOrFeed(
  url: string,
  policy: AddressPolicy,
): Promise<{ html: string; fetchedFrom: string } | { items: string[] }> {
  const fetched = await safeFetch(url, { ...policy, accept: [...HTML_TYPES, ...FEED_TYPES] });
  if (fetched.notModified) throw new Error('a 304 answer to an unconditional request');
  const text = decodePage(fetched.body, fetched.charset);
  if ((HTML_TYPES as readonly string[]).includes(fetched.mediaType))
    return { html: text, fetchedFrom: fetched.url };
  return { items: readFeed(text, fetched.url).items.map((item) => item.link) };
}

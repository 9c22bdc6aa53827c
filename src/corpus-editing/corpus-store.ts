import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Article, Corpus } from '../corpus/article.ts';
import { formatOf } from '../corpus/formats/index.ts';
import { CorpusError, type CorpusProblem, parseArticleFileOffThread } from '../corpus/load-corpus.ts';
import {
  FileExistsError,
  isErrnoException,
  isTemporaryName,
  removeFileDurably,
  writeFileAtomic,
} from '../files/atomic-write.ts';
import { HostileFileNameError, safeArticleName } from './article-file-name.ts';

/** The largest article file `/corpus add` accepts, in bytes. */
export const MAX_ARTICLE_BYTES = 512 * 1024;

/** Why the corpus store refused a change, for logs and tests. */
export type CorpusStoreErrorCode =
  | 'too-large'
  | 'not-utf8'
  | 'invalid-article'
  | 'hostile-name'
  | 'exists'
  | 'gone'
  | 'not-removable'
  | 'not-a-folder'
  | 'unknown-article';

/** Why an article could not be added, replaced or removed. The message is written for moderators. */
export class CorpusStoreError extends Error {
  override name = 'CorpusStoreError';
  constructor(
    readonly code: CorpusStoreErrorCode,
    message: string,
    /** For `invalid-article`: every problem the validator found. */
    readonly problems: readonly CorpusProblem[] = [],
  ) {
    super(message);
  }
}

/** A validated article ready to be written. Nothing is on disk yet. */
export interface PreparedArticle {
  kind: 'add' | 'replace';
  article: Article;
  /** Bare file name in the corpus folder. */
  fileName: string;
  /** The text to write (UTF-8, byte-order mark removed). */
  text: string;
}

/** A removal ready to be done. */
export interface PreparedRemoval {
  article: Article;
  fileName: string;
}

/** Puts the corpus folder back as it was before one write or removal. */
export type Undo = () => Promise<void>;

/** Options of {@link CorpusStore}. */
export interface CorpusStoreOptions {
  /** The corpus folder (CORPUS_PATH when it is a folder). */
  folder: string;
  /** @default MAX_ARTICLE_BYTES (512 KiB) */
  maxBytes?: number;
  /** Test hook passed to the atomic writer: runs between write and rename. */
  beforeCommit?: (tempPath: string) => void | Promise<void>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Adds, replaces and removes article files in the corpus folder. Every incoming file is validated with
 * the core's parser before anything touches the disk, and every write is atomic, so the folder always
 * holds a whole, loadable corpus.
 */
export class CorpusStore {
  readonly folder: string;
  readonly maxBytes: number;
  readonly #beforeCommit: CorpusStoreOptions['beforeCommit'];

  constructor(options: CorpusStoreOptions) {
    this.folder = path.resolve(options.folder);
    this.maxBytes = options.maxBytes ?? MAX_ARTICLE_BYTES;
    this.#beforeCommit = options.beforeCommit;
  }

  /**
   * Validates an uploaded file against the corpus now serving. An article with the same id makes it a
   * `replace`, which the caller must confirm as such; a clash with anything else is refused.
   */
  async prepare(uploadedName: string, bytes: Uint8Array, current: Corpus): Promise<PreparedArticle> {
    if (bytes.byteLength > this.maxBytes) {
      throw new CorpusStoreError(
        'too-large',
        `The file is ${formatBytes(bytes.byteLength)}; articles may be at most ${formatBytes(this.maxBytes)}.`,
      );
    }
    let name: ReturnType<typeof safeArticleName>;
    try {
      name = safeArticleName(uploadedName);
    } catch (error) {
      if (error instanceof HostileFileNameError) {
        throw new CorpusStoreError('hostile-name', `The file name was refused: ${error.message}.`);
      }
      throw error;
    }
    let text: string;
    try {
      text = utf8.decode(bytes).replace(/^\uFEFF/, '');
    } catch {
      throw new CorpusStoreError(
        'not-utf8',
        'The file is not UTF-8 text. Save it as UTF-8 and upload it again.',
      );
    }
    let article: Article;
    try {
      // A saved page is read by the extraction worker: a hostile one holds no question up.
      article = await parseArticleFileOffThread(name.fileName, text);
    } catch (error) {
      if (error instanceof CorpusError) {
        throw new CorpusStoreError(
          'invalid-article',
          `The article was refused:\n${error.message}`,
          error.problems,
        );
      }
      throw error;
    }
    const existing = current.articles.find((candidate) => candidate.id === article.id);
    const onDisk = await this.#filesWithId(article.id);
    if (existing === undefined && onDisk.length === 0) {
      return { kind: 'add', article, fileName: name.fileName, text };
    }
    if (existing !== undefined && this.#fileOf(existing) === name.fileName && onDisk.length === 1) {
      return { kind: 'replace', article, fileName: name.fileName, text };
    }
    const where = existing ? existing.source : onDisk.join(', ');
    throw new CorpusStoreError(
      'exists',
      `The id "${article.id}" is already used by ${where}. Rename the file to add it as a new article, ` +
        `or upload it with the same name and extension as the existing file to replace it.`,
    );
  }

  /** Writes a prepared article atomically. An `add` never overwrites a file that appeared meanwhile. */
  async write(prepared: PreparedArticle): Promise<Undo> {
    const target = this.#path(prepared.fileName);
    let previous: Buffer | undefined;
    if (prepared.kind === 'replace') {
      try {
        previous = await readFile(target);
      } catch (error) {
        if (!(isErrnoException(error) && error.code === 'ENOENT')) throw error;
        throw new CorpusStoreError(
          'gone',
          `${prepared.fileName} was removed after the preview; nothing was written. Run /corpus add again.`,
        );
      }
    }
    try {
      await writeFileAtomic(target, prepared.text, {
        overwrite: prepared.kind === 'replace',
        beforeCommit: this.#beforeCommit,
      });
    } catch (error) {
      if (error instanceof FileExistsError) {
        throw new CorpusStoreError(
          'exists',
          `A file named ${prepared.fileName} appeared meanwhile; nothing was written.`,
        );
      }
      throw error;
    }
    return previous === undefined
      ? async () => void (await removeFileDurably(target))
      : () => writeFileAtomic(target, previous, { overwrite: true });
  }

  /** Finds the file holding article `id`; only articles stored one per file in this folder can be removed. */
  prepareRemoval(id: string, current: Corpus): PreparedRemoval {
    const article = current.articles.find((candidate) => candidate.id === id);
    if (article === undefined)
      throw new CorpusStoreError('unknown-article', `There is no article with id "${id}".`);
    const fileName = this.#fileOf(article);
    if (fileName === undefined) {
      throw new CorpusStoreError(
        'not-removable',
        `Article "${id}" comes from ${article.source}, not from its own file in the corpus folder; edit that file instead.`,
      );
    }
    return { article, fileName };
  }

  /** Removes the article's file; the returned undo writes it back. */
  async remove(prepared: PreparedRemoval): Promise<Undo> {
    const target = this.#path(prepared.fileName);
    let previous: Buffer;
    try {
      previous = await readFile(target);
    } catch {
      throw new CorpusStoreError('unknown-article', `The file of "${prepared.article.id}" is already gone.`);
    }
    await removeFileDurably(target);
    return () => writeFileAtomic(target, previous, { overwrite: false });
  }

  /** The bare file name of an article stored as its own file directly in this folder, else undefined. */
  #fileOf(article: Article): string | undefined {
    const resolved = path.resolve(article.source);
    if (path.dirname(resolved) !== this.folder) return undefined;
    const base = path.basename(resolved);
    return formatOf(base)?.kind === 'article' && !base.includes(':') ? base : undefined;
  }

  /** Files in the folder that would load as article `id` (any article extension). */
  async #filesWithId(id: string): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOTDIR') {
        throw new CorpusStoreError(
          'not-a-folder',
          'The corpus is a single .jsonl file (CORPUS_PATH); /corpus can only edit a folder of article files.',
        );
      }
      throw error;
    }
    return names.filter((name) => !isTemporaryName(name) && path.parse(name).name === id);
  }

  #path(fileName: string): string {
    const target = path.resolve(this.folder, fileName);
    // Belt and braces: names are already safe, but a path outside the folder must never be written.
    if (path.dirname(target) !== this.folder)
      throw new CorpusStoreError('hostile-name', 'The file name was refused.');
    return target;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

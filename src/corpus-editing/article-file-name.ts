import { ARTICLE_EXTENSIONS } from '../corpus/formats/index.ts';

/** The longest id a derived name may have (the core's `ArticleId` allows 80 characters). */
const MAX_ID_LENGTH = 80;

/** Why an uploaded file name was refused. */
export class HostileFileNameError extends Error {
  override name = 'HostileFileNameError';
}

/** An uploaded file's name, checked and turned into the article id and file name it will be stored as. */
export interface SafeArticleName {
  /** The article id: a slug of the uploaded name (`Téteghem Mayor.md` → `teteghem-mayor`). */
  id: string;
  /** One of `ARTICLE_EXTENSIONS` (`.md`, `.markdown`, `.txt`), lower-cased. */
  extension: string;
  /** `${id}${extension}`: a bare file name, never a path. */
  fileName: string;
}

/**
 * Lower-case ASCII letters, digits and single hyphens: accents are folded (é → e), everything else
 * becomes a hyphen. Empty when nothing usable is left.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_ID_LENGTH) return slug;
  const cut = slug.slice(0, MAX_ID_LENGTH);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > 20 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}

/**
 * Checks an uploaded file name and derives the stored name from it. Names that try to leave the corpus
 * folder, hide themselves or smuggle control characters are refused outright rather than cleaned up,
 * so that whoever sent one is told; ordinary names are slugified.
 *
 * @example safeArticleName('Mayor of Téteghem.md') // { id: 'mayor-of-teteghem', extension: '.md', ... }
 */
export function safeArticleName(uploaded: string, fallbackTitle?: string): SafeArticleName {
  if (uploaded.length === 0 || uploaded.length > 255) {
    throw new HostileFileNameError('the file name must be 1 to 255 characters long');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(uploaded))
    throw new HostileFileNameError('the file name contains control characters');
  if (/[/\\]/.test(uploaded)) throw new HostileFileNameError('the file name must not contain "/" or "\\"');
  if (uploaded.startsWith('.')) throw new HostileFileNameError('the file name must not start with "."');
  if (uploaded.includes('..')) throw new HostileFileNameError('the file name must not contain ".."');
  if (/^[A-Za-z]:/.test(uploaded)) throw new HostileFileNameError('the file name must not be a drive path');
  const dot = uploaded.lastIndexOf('.');
  const extension = dot > 0 ? uploaded.slice(dot).toLowerCase() : '';
  if (!ARTICLE_EXTENSIONS.includes(extension)) {
    throw new HostileFileNameError(`the file must be ${ARTICLE_EXTENSIONS.join(', ')}`);
  }
  const id = slugify(uploaded.slice(0, dot)) || slugify(fallbackTitle ?? '');
  if (id === '') throw new HostileFileNameError('no usable article id can be derived from the file name');
  return { id, extension, fileName: `${id}${extension}` };
}

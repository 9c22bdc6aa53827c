/**
 * How deep and how large a page may be for the extractor to read it. Readability's cost grows with the
 * cube of the nesting depth (a 16 KB page of 1,500 nested `<div>`s took 27 s, 5,000 overflowed the
 * stack), while a news page nests a few dozen elements deep: a page past either bound is refused
 * before it is parsed, by a scan of its raw text that costs one pass.
 */
export interface PageBounds {
  /** Elements open inside one another at most (EXTRACT_MAX_DEPTH). */
  maxDepth: number;
  /** Characters of HTML at most (EXTRACT_MAX_PAGE_MB, counted in characters of the decoded page). */
  maxChars: number;
}

export const DEFAULT_PAGE_BOUNDS: PageBounds = { maxDepth: 128, maxChars: 5 * 1024 * 1024 };

/** A page past one of the bounds: refused before extraction, in words for whoever gave it. */
export class PageTooComplexError extends Error {
  override name = 'PageTooComplexError';
  constructor(
    readonly code: 'page-too-deep' | 'page-too-large',
    message: string,
  ) {
    super(message);
  }
}

/** Elements that never hold others. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is text up to their own end tag, never markup. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);

/** Elements that end an open one of the same name when they start (`<p>a<p>b`, `<li>a<li>b`). */
const SELF_ENDING = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'rt', 'rp']);

/** Elements whose start ends an open paragraph, as the HTML parser does. */
const ENDS_PARAGRAPH = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'div',
  'dl',
  'fieldset',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'pre',
  'section',
  'table',
  'ul',
]);

const TAG_NAME = /[a-zA-Z][a-zA-Z0-9:-]*/y;

/**
 * How deep the page's elements nest, scanning its text once and stopping as soon as `limit` is passed
 * (so a hostile page costs no more than `limit` levels of bookkeeping per tag). Close to what the HTML
 * parser builds: end tags close up to their element, void and raw-text elements hold nothing, and the
 * usual implied ends (`<p>` before a block, `<li>` before `<li>`) are applied. A page it cannot follow
 * exactly is still bounded by the extraction's time limit.
 */
export function nestingDepth(html: string, limit = Number.POSITIVE_INFINITY): number {
  const open: string[] = [];
  let deepest = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at)) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end === -1) break;
      at = end + 3;
      continue;
    }
    const next = html[at + 1];
    if (next === '!' || next === '?') {
      const end = html.indexOf('>', at);
      if (end === -1) break;
      at = end + 1;
      continue;
    }
    const closing = next === '/';
    TAG_NAME.lastIndex = at + (closing ? 2 : 1);
    const name = TAG_NAME.exec(html)?.[0]?.toLowerCase();
    if (name === undefined) {
      at++;
      continue;
    }
    const end = html.indexOf('>', TAG_NAME.lastIndex);
    if (end === -1) break;
    at = end + 1;
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index !== -1) open.length = index;
      continue;
    }
    if (VOID.has(name)) continue;
    if (RAW_TEXT.has(name)) {
      const endTag = rawTextEnd(name);
      endTag.lastIndex = at;
      if (endTag.exec(html) === null) break;
      at = endTag.lastIndex - name.length - 2;
      continue;
    }
    const top = open.at(-1);
    if (top === 'p' && ENDS_PARAGRAPH.has(name)) open.pop();
    else if (top === name && SELF_ENDING.has(name)) open.pop();
    open.push(name);
    if (open.length > deepest) deepest = open.length;
    if (deepest > limit) break;
  }
  return deepest;
}

const rawTextEnds = new Map<string, RegExp>();
function rawTextEnd(name: string): RegExp {
  let pattern = rawTextEnds.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`</${name}`, 'gi');
    rawTextEnds.set(name, pattern);
  }
  return pattern;
}

/** Throws `PageTooComplexError` for a page past `bounds`; costs one scan of its text. */
export function checkPageBounds(html: string, bounds: PageBounds = DEFAULT_PAGE_BOUNDS): void {
  if (html.length > bounds.maxChars) {
    throw new PageTooComplexError(
      'page-too-large',
      `The page is ${megabytes(html.length)} of HTML; pages of at most ${megabytes(bounds.maxChars)} are read (EXTRACT_MAX_PAGE_MB).`,
    );
  }
  const depth = nestingDepth(html, bounds.maxDepth);
  if (depth > bounds.maxDepth) {
    throw new PageTooComplexError(
      'page-too-deep',
      `The page nests its elements more than ${bounds.maxDepth} deep (a news page nests a few dozen); it was not read (EXTRACT_MAX_DEPTH).`,
    );
  }
}

function megabytes(chars: number): string {
  const mb = chars / (1024 * 1024);
  return `${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}

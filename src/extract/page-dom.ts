import { createRequire } from 'node:module';

type Linkedom = typeof import('linkedom');

/** The DOM type linkedom returns; used as the browser's `Document` would be. */
export type PageDocument = ReturnType<Linkedom['parseHTML']>['document'];
export type PageElement = ReturnType<PageDocument['createElement']>;

const require = createRequire(import.meta.url);
let linkedom: Linkedom | undefined;

/**
 * Parses a page's HTML into a DOM (linkedom: a fraction of jsdom's time and memory, no scripts run).
 * linkedom is loaded on first use: it takes over a second to load, and every index worker loads the
 * corpus reader, which needs it only for `.html` files.
 */
export function parsePage(html: string): PageDocument {
  linkedom ??= require('linkedom') as Linkedom;
  return linkedom.parseHTML(html).document;
}

/**
 * Decodes fetched bytes: the charset the server stated, else the one the page declares in its first
 * kilobytes (`<meta charset>` or `http-equiv`), else UTF-8. An unknown label falls back to UTF-8.
 */
export function decodePage(body: Uint8Array, statedCharset: string | undefined): string {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 2048));
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1] ?? undefined;
  for (const label of [statedCharset, declared, 'utf-8']) {
    if (label === undefined) continue;
    try {
      return new TextDecoder(label).decode(body).replace(/^\uFEFF/, '');
    } catch {
      // Not a label TextDecoder knows: try the next one.
    }
  }
  return new TextDecoder().decode(body);
}

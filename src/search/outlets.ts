import { fold } from './analyze.ts';

/** An outlet's name as compared: case, accents and spacing aside ("harbour  gazette" is "Harbour Gazette"). */
export function publisherKey(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((word) => fold(word))
    .join(' ');
}

/** The outlets an answer is limited to, as keys; undefined when none are named (every outlet). */
export function publisherKeys(publishers: readonly string[] | undefined): Set<string> | undefined {
  if (!publishers || publishers.length === 0) return undefined;
  return new Set(publishers.map(publisherKey));
}

/** An outlet of the corpus, with how many of its articles it holds. */
export interface Outlet {
  name: string;
  articles: number;
}

/** The corpus's outlets (its articles' publishers), most articles first, then by name. */
export function outletsOf(articles: readonly { publisher: string | null }[]): Outlet[] {
  const byKey = new Map<string, Outlet>();
  for (const article of articles) {
    if (!article.publisher || article.publisher.trim() === '') continue;
    const key = publisherKey(article.publisher);
    const known = byKey.get(key);
    if (known) known.articles += 1;
    else byKey.set(key, { name: article.publisher.trim(), articles: 1 });
  }
  return [...byKey.values()].sort((a, b) => b.articles - a.articles || a.name.localeCompare(b.name));
}

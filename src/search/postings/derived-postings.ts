import type { PostingStore, Postings } from './posting-store.ts';

/** One field's documents holding a term, ascending, with the term's frequency in each. */
export interface PostingRun {
  docs: Uint32Array;
  tfs: Uint16Array | Uint32Array;
}

/** Term `t`'s postings in one stored field (views, not copies). */
function storedRun({ offsets, docs, tfs }: Postings, t: number): PostingRun {
  const from = offsets[t]!;
  const to = offsets[t + 1]!;
  return { docs: docs.subarray(from, to), tfs: tfs.subarray(from, to) };
}

/** Term `t`'s postings in the passage text. */
export const passageTextRun = (store: PostingStore, t: number) => storedRun(store.passageText, t);

/** Term `t`'s postings in the headlines. */
export const articleTitleRun = (store: PostingStore, t: number) => storedRun(store.articleTitle, t);

/**
 * Term `t`'s postings in the passages' `context`: the text of the passages before and after, in the
 * same article. A passage holds the term as often as its two neighbours together.
 */
export function passageContextRun(store: PostingStore, t: number): PostingRun {
  const { passageArticle } = store;
  const { docs, tfs } = passageTextRun(store, t);
  const n = docs.length;
  const passages = passageArticle.length;
  const outDocs = new Uint32Array(2 * n);
  const outTfs = new Uint32Array(2 * n);
  let out = 0;
  // Two ascending streams: the passage before each holder (`before`), the passage after it (`after`).
  let before = 0;
  let after = 0;
  for (;;) {
    while (before < n && !(docs[before]! > 0 && sameArticle(passageArticle, docs[before]!, -1))) before++;
    while (after < n && !(docs[after]! + 1 < passages && sameArticle(passageArticle, docs[after]!, 1)))
      after++;
    if (before >= n && after >= n) break;
    const left = before < n ? docs[before]! - 1 : Number.POSITIVE_INFINITY;
    const right = after < n ? docs[after]! + 1 : Number.POSITIVE_INFINITY;
    if (left <= right) {
      outDocs[out] = left;
      outTfs[out] = tfs[before++]! + (left === right ? tfs[after++]! : 0);
    } else {
      outDocs[out] = right;
      outTfs[out] = tfs[after++]!;
    }
    out++;
  }
  return { docs: outDocs.slice(0, out), tfs: outTfs.slice(0, out) };
}

function sameArticle(passageArticle: Uint32Array, passage: number, step: 1 | -1): boolean {
  return passageArticle[passage] === passageArticle[passage + step];
}

/** Term `t`'s postings in the articles' `text` (all their passages): the passages' counts summed by article. */
export function articleTextRun(store: PostingStore, t: number): PostingRun {
  const { passageArticle } = store;
  const { docs, tfs } = passageTextRun(store, t);
  const outDocs = new Uint32Array(docs.length);
  const outTfs = new Uint32Array(docs.length);
  let out = -1;
  for (let k = 0; k < docs.length; k++) {
    const article = passageArticle[docs[k]!]!;
    if (out >= 0 && outDocs[out] === article) {
      outTfs[out]! += tfs[k]!;
    } else {
      outDocs[++out] = article;
      outTfs[out] = tfs[k]!;
    }
  }
  return { docs: outDocs.slice(0, out + 1), tfs: outTfs.slice(0, out + 1) };
}

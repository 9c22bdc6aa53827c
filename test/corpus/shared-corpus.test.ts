import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { diffCorpora } from '../../src/corpus/corpus-diff.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';
import {
  citedThroughArticle,
  openSharedCorpus,
  passageCount,
  samePassages,
  sameText,
  shareCorpus,
} from '../../src/corpus/shared-corpus.ts';
import { CorpusLookup } from '../../src/search/corpus-lookup.ts';
import { BUNDLED_CORPUS } from '../support/temp-corpus.ts';

/** The corpus as plain data: what every reader of an article or passage sees. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('shareCorpus', () => {
  it('reads back, on this thread and from the shared bytes, as the corpus it was made from', async () => {
    const corpus = await loadCorpus(BUNDLED_CORPUS);
    const { shared, corpus: views } = await shareCorpus(corpus);
    expect(views).toEqual(corpus);
    expect(plain(views)).toEqual(plain(corpus));
    expect(openSharedCorpus(shared)).toEqual(corpus);
    const passage = views.articles[0]!.passages[0]!;
    expect({ ...passage }).toEqual(corpus.articles[0]!.passages[0]);
  });

  it('keeps text outside ASCII, ids that are not the article id and a paragraph, and empty articles', async () => {
    const corpus = makeCorpus([
      {
        id: 'café',
        source: 'café.md',
        title: 'Œuvres — “quoted” 日本',
        publisher: null,
        url: 'https://example.org/é',
        published: '2024-02-29',
        author: 'Zoë',
        language: 'fr',
        passages: [
          { id: 'café#1', articleId: 'café', paragraph: 1, index: 0, text: 'Déjà vu: “naïve” 🙂 façade.' },
          { id: 'café#2.2', articleId: 'café', paragraph: 2, index: 1, text: '' },
          { id: 'elsewhere#7', articleId: 'café', paragraph: 7, index: 2, text: 'Plain.' },
        ],
      },
      {
        id: 'empty',
        source: 'empty.md',
        title: 'Nothing',
        publisher: 'P',
        url: null,
        published: null,
        author: null,
        language: null,
        passages: [],
      },
    ]);
    const { shared, corpus: views } = await shareCorpus(corpus);
    expect(views).toEqual(corpus);
    expect(openSharedCorpus(shared)).toEqual(corpus);
  });

  it('compares passages of two shared corpora by their bytes, as their texts compare', async () => {
    const corpus = await loadCorpus(BUNDLED_CORPUS);
    const [first, ...rest] = corpus.articles;
    const edited = {
      ...first!,
      passages: first!.passages.map((passage, i) =>
        i === 1 ? { ...passage, text: `${passage.text}!` } : passage,
      ),
    };
    const before = (await shareCorpus(corpus)).corpus;
    const after = (await shareCorpus(makeCorpus([edited, ...rest]))).corpus;
    const same = (await shareCorpus(makeCorpus(corpus.articles.map((article) => ({ ...article }))))).corpus;
    expect(sameText(before.articles[0]!.passages[0]!, after.articles[0]!.passages[0]!)).toBe(true);
    expect(sameText(before.articles[0]!.passages[1]!, after.articles[0]!.passages[1]!)).toBe(false);
    // A shared passage and a plain one compare by text.
    expect(sameText(before.articles[0]!.passages[1]!, corpus.articles[0]!.passages[1]!)).toBe(true);
    expect(await diffCorpora(before, after)).toEqual({ added: [], removed: [], changed: [first!.id] });
    expect(await diffCorpora(before, same)).toEqual({ added: [], removed: [], changed: [] });
  });

  it("tells an article's passage count and whether its citations go through it, and finds every citation", async () => {
    const views = (await shareCorpus(makeCorpus([article('plain', ['plain#1', 'plain#2.2']), irregular()])))
      .corpus;
    const [plain, odd] = views.articles as [Article, Article];
    expect([passageCount(plain), passageCount(odd)]).toEqual([2, 3]);
    expect([citedThroughArticle(plain), citedThroughArticle(odd)]).toEqual([true, false]);
    // A plain article is not known without reading its passages.
    expect(citedThroughArticle(irregular())).toBeUndefined();
    // Made once, then the same passages on every read.
    expect(plain.passages).toBe(plain.passages);
    const lookup = CorpusLookup.of(views);
    expect(lookup.passageCount).toBe(5);
    for (const id of ['plain#1', 'plain#2.2', 'odd#1', 'elsewhere#7', 'odd#2#b'])
      expect(lookup.byCitation.get(id)?.passage.id).toBe(id);
    expect(lookup.byCitation.get('odd#7')).toBeUndefined();
  });

  it('compares the passages of two shared articles on their bytes: ids, paragraphs and where texts split', async () => {
    const base = article('a', ['a#1', 'a#2'], ['one two', 'three']);
    const variants = [
      article('a', ['a#1', 'a#3'], ['one two', 'three']),
      article('a', ['a#1', 'a#2'], ['one', ' twothree']),
      article('a', ['a#1', 'a#2'], ['one two', 'three!']),
      article('a', ['a#1'], ['one two']),
      { ...base, passages: base.passages.map((passage, i) => ({ ...passage, paragraph: i + 5 })) },
    ];
    const shared = async (one: Article) => (await shareCorpus(makeCorpus([one]))).corpus.articles[0]!;
    const before = await shared(base);
    expect(samePassages(before, await shared(base))).toBe(true);
    // A shared article and a plain one compare passage by passage.
    expect(samePassages(before, base)).toBe(true);
    for (const variant of variants) {
      expect(samePassages(before, await shared(variant))).toBe(false);
      expect(samePassages(before, variant)).toBe(false);
    }
  });

  it('is read by another thread from the same memory, with no copy of the text', async () => {
    const corpus = await loadCorpus(BUNDLED_CORPUS);
    const { shared } = await shareCorpus(corpus);
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const bytes = new Uint8Array(workerData.text);
       parentPort.postMessage(Buffer.from(bytes).toString('utf8', 0, 40));
       bytes[0] = 0x58;
       parentPort.postMessage('written');`,
      { eval: true, workerData: shared },
    );
    const messages: string[] = await new Promise((resolve, reject) => {
      const seen: string[] = [];
      worker.on('message', (message: string) => {
        seen.push(message);
        if (seen.length === 2) resolve(seen);
      });
      worker.on('error', reject);
    });
    await worker.terminate();
    const first = corpus.articles.find((article) => article.passages.length > 0)!.passages[0]!.text;
    expect(messages[0]).toBe(Buffer.from(first).subarray(0, 40).toString('utf8'));
    // The worker's write is seen here: one buffer, not a copy.
    expect(new Uint8Array(shared.text)[0]).toBe(0x58);
  });
});

/** An article of the given passage ids (and texts). */
function article(id: string, ids: string[], texts = ids.map((passage) => `Text of ${passage}.`)): Article {
  return {
    id,
    source: `${id}.md`,
    title: `Title ${id}`,
    publisher: null,
    url: null,
    published: null,
    author: null,
    language: null,
    passages: ids.map((passage, index) => ({
      id: passage,
      articleId: id,
      paragraph: index + 1,
      index,
      text: texts[index]!,
    })),
  };
}

/** An article with passage ids that are not its id, `#` and a suffix without `#`. */
function irregular(): Article {
  return article('odd', ['odd#1', 'elsewhere#7', 'odd#2#b']);
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evalCorpus } from '../../../bench/eval/corpora.ts';
import { type FollowUpRecord, loadFollowUpSet } from '../../../bench/eval/follow-up-set.ts';
import { halfAt, loadQuestionSet, QUESTION_SETS, questionSetPath } from '../../../bench/eval/question-set.ts';
import { collapseWhitespace } from '../../../bench/lib/newsqa.ts';

// Issue 32's follow-up pairs are only worth their figures if each follow-up's answer lies in one
// passage of the article the first question is answered by, as the loader chunks it.
let pairs: FollowUpRecord[];

beforeAll(async () => {
  pairs = await loadFollowUpSet();
});

describe('the follow-up set', () => {
  it('holds at least 48 pairs on the seed, BBC and Reuters articles', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(48);
    const sources = new Set(
      pairs.map(({ article }) => (/^(bbc|reuters)-/.test(article) ? article.split('-')[0] : 'seed')),
    );
    expect([...sources].sort()).toEqual(['bbc', 'reuters', 'seed']);
  });

  it('has unique ids, each starting follow-ups-, and asks no first question twice', () => {
    const ids = pairs.map((pair) => pair.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id.startsWith('follow-ups-')).toBe(true);
    const firsts = pairs.map((pair) => pair.first.toLowerCase());
    expect(new Set(firsts).size).toBe(firsts.length);
  });

  it('alternates halves and asks of each article in one half only', () => {
    expect(pairs.map((pair) => pair.half)).toEqual(pairs.map((_, index) => halfAt(index)));
    const halvesOf = new Map<string, Set<string>>();
    for (const { article, half } of pairs)
      halvesOf.set(article, (halvesOf.get(article) ?? new Set()).add(half));
    expect([...halvesOf].filter(([, halves]) => halves.size > 1).map(([article]) => article)).toEqual([]);
  });

  it("gives each follow-up an answer found verbatim in one passage of the first question's article", {
    tags: ['shared-data'],
    timeout: 120_000,
  }, async () => {
    // The seed articles are in corpus/, the BBC and Reuters ones in ../shared.
    const corpora = await Promise.all([evalCorpus('seed'), evalCorpus('full')]);
    const passagesByArticle = new Map(
      corpora.flatMap((corpus) =>
        corpus.articles.map((article) => [
          article.id,
          article.passages.map((passage) => collapseWhitespace(passage.text)),
        ]),
      ),
    );
    const missing = pairs
      .filter(({ article, answer }) => {
        const passages = passagesByArticle.get(article) ?? [];
        return !passages.some((passage) => passage.includes(collapseWhitespace(answer)));
      })
      .map(({ id, article, answer }) => `${id} (${article}): ${answer}`);
    expect(missing).toEqual([]);
  });

  it('asks of no BBC or Reuters article another set asks of', async () => {
    const elsewhere = new Set<string>();
    for (const name of QUESTION_SETS) {
      for (const { article } of await loadQuestionSet(questionSetPath(name))) {
        if (article !== null && /^(bbc|reuters)-/.test(article)) elsewhere.add(article);
      }
    }
    expect(pairs.filter(({ article }) => elsewhere.has(article)).map(({ id }) => id)).toEqual([]);
  });
});

describe('loadFollowUpSet', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function file(lines: string[]): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'follow-up-set-'));
    const path = join(dir, 'pairs.jsonl');
    await writeFile(path, `${lines.join('\n')}\n`);
    return path;
  }

  it('reads a pair with its note', async () => {
    const path = await file([
      '{"id":"f-001","first":"Who was arrested?","followUp":"when?","article":"a","answer":"on Monday","half":"tune","note":"bare"}',
    ]);
    expect(await loadFollowUpSet(path)).toEqual([
      {
        id: 'f-001',
        first: 'Who was arrested?',
        followUp: 'when?',
        article: 'a',
        answer: 'on Monday',
        half: 'tune',
        note: 'bare',
      },
    ]);
  });

  it('names the line of a pair without an article, or that is not JSON', async () => {
    const noArticle = await file([
      '{"id":"f-001","first":"Who?","followUp":"when?","article":"a","answer":"Monday","half":"tune"}',
      '{"id":"f-002","first":"Who?","followUp":"when?","article":null,"answer":"Monday","half":"test"}',
    ]);
    await expect(loadFollowUpSet(noArticle)).rejects.toThrow(/pairs\.jsonl:2: expected/);
    const notJson = await file(['{"id":"f-001",']);
    await expect(loadFollowUpSet(notJson)).rejects.toThrow(/pairs\.jsonl:1: not a JSON object/);
  });
});

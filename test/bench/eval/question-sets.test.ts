import { beforeAll, describe, expect, it } from 'vitest';
import { evalCorpus } from '../../../bench/eval/corpora.ts';
import {
  halfAt,
  loadQuestionSet,
  QUESTION_SETS,
  type QuestionRecord,
  type QuestionSetName,
  questionSetPath,
} from '../../../bench/eval/question-set.ts';
import { collapseWhitespace } from '../../../bench/lib/newsqa.ts';

// The committed question sets are only worth their figures if every answer really lies in one passage
// of its article as the loader chunks it (a hit needs the answer inside the retrieved passage).
const sets = new Map<QuestionSetName, QuestionRecord[]>();

beforeAll(async () => {
  for (const name of QUESTION_SETS) sets.set(name, await loadQuestionSet(questionSetPath(name)));
});

/** The sets whose articles are in ../shared (the seed set's are in `corpus/`; off-topic has none). */
const ASKS_OF_SHARED: ReadonlySet<QuestionSetName> = new Set(['bbc-reuters']);

/** Each article's passages, whitespace collapsed, of the corpus the set asks of. */
async function passagesByArticle(name: QuestionSetName): Promise<Map<string, string[]>> {
  const corpus = await evalCorpus(ASKS_OF_SHARED.has(name) ? 'full' : 'seed');
  return new Map(
    corpus.articles.map((article) => [
      article.id,
      article.passages.map((passage) => collapseWhitespace(passage.text)),
    ]),
  );
}

describe.each(QUESTION_SETS)('question set %s', (name) => {
  it('has unique ids, each with the set name as prefix', () => {
    const ids = sets.get(name)!.map((record) => record.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id.startsWith(`${name}-`)).toBe(true);
  });

  it('alternates halves, odd-numbered questions tuning and even-numbered ones testing', () => {
    const records = sets.get(name)!;
    expect(records.map((record) => record.half)).toEqual(records.map((_, index) => halfAt(index)));
  });

  it('has no question twice', () => {
    const questions = sets.get(name)!.map((record) => record.question.toLowerCase());
    expect(new Set(questions).size).toBe(questions.length);
  });

  it('gives each answerable question an answer found verbatim in one passage of its article', {
    tags: ASKS_OF_SHARED.has(name) ? ['shared-data'] : [],
    timeout: 120_000,
  }, async () => {
    const byArticle = await passagesByArticle(name);
    const missing = sets
      .get(name)!
      .filter((record) => record.article !== null)
      .filter((record) => {
        const passages = byArticle.get(record.article!) ?? [];
        const answer = collapseWhitespace(record.answer!);
        return !passages.some((passage) => passage.includes(answer));
      })
      .map((record) => `${record.id} (${record.article}): ${record.answer}`);
    expect(missing).toEqual([]);
  });
});

describe('set sizes', () => {
  it('holds at least 60 seed, 150 BBC/Reuters and 180 off-topic questions', () => {
    expect(sets.get('seed')!.filter((record) => record.article !== null).length).toBeGreaterThanOrEqual(60);
    expect(
      sets.get('bbc-reuters')!.filter((record) => record.article !== null).length,
    ).toBeGreaterThanOrEqual(150);
    const offTopic = sets.get('off-topic')!;
    expect(offTopic.length).toBeGreaterThanOrEqual(180);
    expect(offTopic.every((record) => record.article === null && record.answer === null)).toBe(true);
  });

  it('asks about both BBC and Reuters articles, roughly half each', () => {
    const articles = sets.get('bbc-reuters')!.map((record) => record.article!);
    const bbc = articles.filter((id) => id.startsWith('bbc-')).length;
    const reuters = articles.filter((id) => id.startsWith('reuters-')).length;
    expect(bbc + reuters).toBe(articles.length);
    expect(Math.min(bbc, reuters) / articles.length).toBeGreaterThan(0.4);
  });
});

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

/** The sets whose articles are in ../shared (the seed set's are in `corpus/`; off-topic and near-misses have none). */
const ASKS_OF_SHARED: ReadonlySet<QuestionSetName> = new Set(['bbc-reuters', 'readers']);

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

  it.each(['bbc-reuters', 'readers'] as const)(
    'asks %s about both BBC and Reuters articles, roughly half each',
    (name) => {
      const articles = sets.get(name)!.map((record) => record.article!);
      const bbc = articles.filter((id) => id.startsWith('bbc-')).length;
      const reuters = articles.filter((id) => id.startsWith('reuters-')).length;
      expect(bbc + reuters).toBe(articles.length);
      expect(Math.min(bbc, reuters) / articles.length).toBeGreaterThan(0.4);
    },
  );

  it('holds at least 70 reader questions and 10 near misses, none of them answerable', () => {
    const readers = sets.get('readers')!;
    expect(readers.length).toBeGreaterThanOrEqual(70);
    expect(readers.every((record) => record.article !== null)).toBe(true);
    const nearMisses = sets.get('near-misses')!;
    expect(nearMisses.length).toBeGreaterThanOrEqual(10);
    expect(nearMisses.every((record) => record.article === null && record.answer === null)).toBe(true);
  });
});

describe('the readers set', () => {
  it('asks only of articles no earlier set asks of', () => {
    const earlier = new Set(
      (['seed', 'bbc-reuters', 'off-topic'] as const).flatMap((name) =>
        sets.get(name)!.flatMap((record) => (record.article === null ? [] : [record.article])),
      ),
    );
    const reused = sets.get('readers')!.filter((record) => earlier.has(record.article!));
    expect(reused.map((record) => `${record.id} (${record.article})`)).toEqual([]);
  });

  // Whole articles are kept out, not only questions: a tuner never sees a test article's passages as
  // a right answer.
  it('asks of each article in one half only, with as many questions in each half', () => {
    const halvesOf = new Map<string, Set<string>>();
    for (const { article, half } of sets.get('readers')!) {
      halvesOf.set(article!, (halvesOf.get(article!) ?? new Set()).add(half));
    }
    expect([...halvesOf].filter(([, halves]) => halves.size > 1).map(([article]) => article)).toEqual([]);
    const tune = sets.get('readers')!.filter((record) => record.half === 'tune').length;
    expect(tune * 2).toBe(sets.get('readers')!.length);
  });
});

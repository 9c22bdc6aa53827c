import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { Assurance } from '../../src/search/answer.ts';
import { Engine } from '../../src/search/engine.ts';
import type { Features } from '../../src/search/ranking-model.ts';
import type { StoryFeature } from '../../src/search/story-features.ts';
import { evalCorpus } from '../eval/corpora.ts';
import { answerRank } from '../eval/outcome.ts';
import type { Half } from '../eval/question-set.ts';
import { RESULT_LIMIT, RUNS, type RunName, runQuestions } from '../eval/runs.ts';

/**
 * What the story model is fitted and judged on (`npm run fit-stories`): for every answerable question
 * of every set, both halves, the reply as the engine gives it (how sure, the answer's rank), the
 * answer's rank within its own article (as choosing that story gives it), and the articles of its
 * ranked candidates with their story features. Which stories are offered changes none of these, so
 * any story model can be judged from them without asking again.
 */

/** The answerable sets, each asked of the corpus the evaluation asks it of. */
export const STORY_SETS = ['seed', 'distractors', 'bbc-reuters', 'readers'] as const satisfies RunName[];

export interface StoryQuestionRecord {
  set: string;
  id: string;
  half: Half;
  /** The article holding the answer. */
  article: string;
  assurance: Assurance;
  /** The answer's 1-based rank in the reply (null: not among its results). */
  rank: number | null;
  /** The answer's rank asked within its own article (null: not among the results there). */
  within: number | null;
  /** The articles of the ranked candidates, in the order of their best candidate. */
  rows: { article: string; features: Features<StoryFeature> }[];
}

/** The records, read from `cache` when it exists, otherwise measured (and written there). */
export async function storyRecords(cache: string | undefined): Promise<StoryQuestionRecord[]> {
  if (cache && existsSync(cache)) return JSON.parse(await readFile(cache, 'utf8')) as StoryQuestionRecord[];
  const records: StoryQuestionRecord[] = [];
  const engines = new Map<string, Engine>();
  for (const set of STORY_SETS) {
    const corpusName = RUNS[set].corpus;
    let engine = engines.get(corpusName);
    if (engine === undefined) {
      engine = Engine.build(await evalCorpus(corpusName));
      engines.set(corpusName, engine);
    }
    for (const question of await runQuestions(set)) {
      const { article, answer } = question;
      if (article === null || answer === null) continue;
      const reply = engine.answer(question.question, { limit: RESULT_LIMIT });
      const within = engine.answer(question.question, { limit: RESULT_LIMIT, articleId: article });
      records.push({
        set,
        id: question.id,
        half: question.half,
        article,
        assurance: reply.assurance,
        rank: answerRank(question, reply.results),
        within: answerRank(question, within.results),
        rows: engine
          .storyRowsForFitting(question.question, RESULT_LIMIT)
          .map((row) => ({ article: row.article.id, features: row.features })),
      });
    }
    process.stderr.write(`${set}: ${records.filter((r) => r.set === set).length} questions measured\n`);
  }
  if (cache) await writeFile(cache, JSON.stringify(records));
  return records;
}

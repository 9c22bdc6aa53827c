import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { Engine, type FittingCandidate, type Pool } from '../../src/search/engine.ts';
import { RANK_FEATURES } from '../../src/search/ranking-model.ts';
import { evalCorpus, SOURCES } from '../eval/corpora.ts';
import { loadQuestionSet, type QuestionSetName, questionSetPath } from '../eval/question-set.ts';
import { answersQuestion, loadNewsQaQuestions, type NewsQaQuestion } from '../lib/newsqa.ts';
import { foldsBySet } from './optimise.ts';
import type { FitOptions } from './options.ts';

/**
 * Step (1) of the fit: every candidate of every tuning question with its features, and which
 * candidates answer it. Only tuning data is used: the `tune` halves of `bench/data/questions/*.jsonl`
 * and the odd-numbered NewsQA questions, each asked of the corpus it is measured on.
 */

/** One tuning question asked of one corpus, with its candidates as the engine measures them. */
export interface FittingQuestion {
  set: string;
  /** Whether the corpus asked holds the answer (false: every candidate is a negative). */
  answerable: boolean;
  question: NewsQaQuestion;
  candidates: FittingCandidate[];
  labels: boolean[];
}

/** The tuning data every step fits on, and how each set counts. */
export interface TuningData {
  questions: FittingQuestion[];
  /** Every set, in the order measured; those whose corpus holds the answers. */
  sets: string[];
  answerableSets: string[];
  /** Each question's cross-validation fold (`FOLDS`): every fifth question of each set, so each fold holds every set. */
  foldOf: ReadonlyMap<FittingQuestion, number>;
  /**
   * How a set counts in the confidence's and answer model's losses: 1 / √questions, a compromise
   * (NewsQA's thousand questions still count more than thirty seed questions, but not thirty times
   * more), times `archiveWeight` for the ~24,000-article sets.
   */
  weightOf(set: string): number;
  /**
   * How a set counts in the ranking's loss: as `weightOf` without the archive's weight, or with
   * `--set-weight equal` each set alike. Counting each set alike raised the seed and BBC/Reuters tuning
   * halves and lowered NewsQA's, and BBC/Reuters' test half fell, so it is not the default.
   */
  rankingWeightOf(set: string): number;
  /** Each question's candidates' ranking features, one flat row of `RANK_FEATURES` per candidate. */
  rankRows: ReadonlyMap<FittingQuestion, Float64Array>;
}

/** Cross-validation folds. */
export const FOLDS = 5;

/** The sets asked of the ~24,000-article corpus. */
const ARCHIVE_SETS = new Set([
  'newsqa@archive',
  'bbc-reuters',
  'readers',
  'off-topic@archive',
  'near-misses',
]);

/**
 * The tuning questions' candidates: measured (about 3 minutes with the archive on the shared machine),
 * or read from `options.cache` when it exists (and written there when it does not); then limited to
 * `options.pool`, which must lie within the pool they were measured from.
 */
export async function tuningData(options: FitOptions): Promise<TuningData> {
  const { cache, pool } = options;
  const { pool: measuredPool, asked: measured }: Measured =
    cache && existsSync(cache)
      ? (JSON.parse(await readFile(cache, 'utf8')) as Measured)
      : { pool: options.measurePool, asked: await measure(options) };
  if (cache && !existsSync(cache))
    await writeFile(cache, JSON.stringify({ pool: measuredPool, asked: measured }));
  if (pool.candidates > measuredPool.candidates || pool.articleCandidates > measuredPool.articleCandidates) {
    throw new Error(
      `--pool ${pool.candidates},${pool.articleCandidates} is wider than the candidates were measured from (${measuredPool.candidates},${measuredPool.articleCandidates}): measure again with --measure-pool`,
    );
  }
  const inPool = (c: FittingCandidate) =>
    c.hitRank < pool.candidates || (c.articleRank !== null && c.articleRank < pool.articleCandidates);
  // Candidates are measured best MiniSearch score first, so the engine's pool is a filter of them.
  const questions: FittingQuestion[] = measured.map((a) => {
    const kept = a.candidates.flatMap((c, i) => (inPool(c) ? [i] : []));
    return { ...a, candidates: kept.map((i) => a.candidates[i]!), labels: kept.map((i) => a.labels[i]!) };
  });
  process.stderr.write(`pool: ${pool.candidates} passages + ${pool.articleCandidates} articles\n`);

  const setSizes = new Map<string, number>();
  for (const a of questions) setSizes.set(a.set, (setSizes.get(a.set) ?? 0) + 1);
  const sqrtWeight = (set: string) => 1 / Math.sqrt(setSizes.get(set)!);
  const sets = [...setSizes.keys()];
  const foldOf = foldsBySet(questions, FOLDS);
  return {
    questions,
    sets,
    answerableSets: sets.filter((set) => questions.find((a) => a.set === set)!.answerable),
    foldOf,
    weightOf: (set) => sqrtWeight(set) * (ARCHIVE_SETS.has(set) ? options.archiveWeight : 1),
    rankingWeightOf: options.setWeight === 'equal' ? (set) => 1 / setSizes.get(set)! : sqrtWeight,
    rankRows: new Map(
      questions.map((a) => [
        a,
        Float64Array.from(a.candidates.flatMap((c) => RANK_FEATURES.map((name) => c.features[name]))),
      ]),
    ),
  };
}

/** What `--cache` keeps: the candidates and the pool they were measured from. */
interface Measured {
  pool: Pool;
  asked: FittingQuestion[];
}

/**
 * Every set asked of the corpus it is measured on:
 *   - NewsQA over NewsQA's articles, and over NewsQA + BBC + Reuters (~24,000 articles, "the archive");
 *   - the seed questions over `corpus/`; the BBC/Reuters questions over the archive;
 *   - the readers questions over the archive, and the near misses there as negatives;
 *   - the off-topic questions over both `corpus/` and the archive (every passage a negative), and, as
 *     more negatives, NewsQA questions over `corpus/` and seed questions over NewsQA.
 */
async function measure(options: FitOptions): Promise<FittingQuestion[]> {
  const newsqaOdd = (await loadNewsQaQuestions(SOURCES.newsqaQuestions)).filter((_, i) => i % 2 === 1);
  const seedTune = await tuneHalf('seed');
  const bbcReutersTune = await tuneHalf('bbc-reuters');
  const offTopicTune = await tuneHalf('off-topic');
  const readersTune = await tuneHalf('readers');
  const nearMissesTune = await tuneHalf('near-misses');
  const ask = (engine: Engine, set: string, questions: NewsQaQuestion[], answerable: boolean) =>
    askAll(engine, set, questions, answerable, options.measurePool);
  const data: FittingQuestion[] = [];
  {
    const seed = Engine.build(await evalCorpus('seed'), { retrieval: options.retrieval });
    data.push(...ask(seed, 'seed', seedTune, true));
    data.push(...ask(seed, 'off-topic@seed', offTopicTune, false));
    data.push(...ask(seed, 'newsqa@seed', newsqaOdd.slice(0, 300), false));
    const newsqa = Engine.build(await evalCorpus('newsqa'), { retrieval: options.retrieval });
    data.push(...ask(newsqa, 'newsqa', newsqaOdd, true));
    data.push(...ask(newsqa, 'seed@newsqa', seedTune, false));
  }
  if (options.archive) {
    const engine = Engine.build(await evalCorpus('full'), { retrieval: options.retrieval });
    data.push(
      ...ask(
        engine,
        'newsqa@archive',
        newsqaOdd.filter((_, i) => i % 2 === 0),
        true,
      ),
    );
    data.push(...ask(engine, 'bbc-reuters', bbcReutersTune, true));
    data.push(...ask(engine, 'off-topic@archive', offTopicTune, false));
    data.push(...ask(engine, 'readers', readersTune, true));
    data.push(...ask(engine, 'near-misses', nearMissesTune, false));
  }
  return data;
}

/** The tuning half of a question set; off-topic questions have no article and no answer. */
async function tuneHalf(name: QuestionSetName): Promise<NewsQaQuestion[]> {
  return (await loadQuestionSet(questionSetPath(name)))
    .filter((record) => record.half === 'tune')
    .map(({ id, article, question, answer }) => ({
      id,
      question,
      article: article ?? '',
      answer: answer ?? '',
    }));
}

function askAll(
  engine: Engine,
  set: string,
  questions: NewsQaQuestion[],
  answerable: boolean,
  pool: Pool,
): FittingQuestion[] {
  const asked = questions.map((question) => {
    const candidates = engine.candidatesForFitting(question.question, pool);
    const labels = candidates.map(
      (c) => answerable && answersQuestion({ article: c.article, passage: c.passage }, question),
    );
    // Once labelled the text is not needed, and without it the cache of a wide pool stays within the
    // length of a string JSON.stringify can write.
    for (const c of candidates) c.passage = '';
    return { set, answerable, question, candidates, labels };
  });
  const reachable = asked.filter((a) => a.labels.some(Boolean)).length;
  process.stderr.write(`${set}: ${questions.length} questions, answer among candidates for ${reachable}\n`);
  return asked;
}

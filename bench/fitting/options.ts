import { parseArgs } from 'node:util';
import type { Pool } from '../../src/search/engine.ts';
import { parseRetrievalSettings, RETRIEVAL, type RetrievalSettings } from '../../src/search/retrieval.ts';

/** How `npm run fit-ranking` is run: every option of its command line, by name. */
export interface FitOptions {
  /** `--dry-run`: fit and print, write nothing. */
  dryRun: boolean;
  /** `--out FILE`: write the model here instead of src/search/ranking-model.json (try it: `npm run eval -- --model FILE`). */
  out: string | undefined;
  /** `--no-archive`: leave out the ~24,000-article corpus and its sets (quick, less faithful). */
  archive: boolean;
  /** `--cache FILE`: keep the measured candidates in this file, and read them from it when it exists. */
  cache: string | undefined;
  /** `--ranking-from FILE`: take the ranking weights from this model file instead of fitting them. */
  rankingFrom: string | undefined;
  /**
   * `--ranking-free a,b`: with `rankingFrom`, refit only these ranking weights, the others kept as that
   * model has them (a feature just added, fitted without moving the rest).
   */
  rankingFree: string | undefined;
  /**
   * `--confidence-from FILE`: keep this model file's confidence (weights and bias) instead of fitting
   * it; the bands are chosen by their rules as ever.
   */
  confidenceFrom: string | undefined;
  /** `--ranking-subset NAME`: skip the ranking's cross-validation with this subset (names as it prints them). */
  rankingSubset: string | undefined;
  /** `--ranking-l2 X`: the ranking's L2 strength, with `rankingSubset` or `rankingFree` (default 0.1). */
  rankingL2: number | undefined;
  /** `--confidence-subset NAME`: skip the confidence's cross-validation with this subset. */
  confidenceSubset: string | undefined;
  /** `--confidence-l2 X`: the confidence's L2 strength, with `confidenceSubset` (default 0.001). */
  confidenceL2: number | undefined;
  /** `--no-search`: every feature at one L2 strength, no cross-validation (quick). */
  search: boolean;
  /** `--pool PASSAGES,ARTICLES`: the candidate pool fitted on (default: the engine's, retrieval.ts). */
  pool: Pool;
  /**
   * `--measure-pool PASSAGES,ARTICLES`: measure candidates from this wider pool (default `pool`), so that
   * with `cache` every pool within it can be fitted on without measuring again.
   */
  measurePool: Pool;
  /**
   * `--retrieval JSON`: the retrieval settings candidates are measured with (default the engine's,
   * retrieval.ts), e.g. '{"postingBudget":5000}'; `pool` defaults to its candidate pool.
   */
  retrieval: RetrievalSettings;
  /** `--set-weight equal|sqrt`: each set counts alike in the ranking's loss, or by 1 / √questions (default). */
  setWeight: 'equal' | 'sqrt';
  /**
   * `--archive-weight X`: multiplies the weight of the ~24,000-article sets in the confidence's and the
   * answer model's losses (default 1): where the threshold is decided and the off-topic line lies.
   */
  archiveWeight: number;
}

/** A command line `npm run fit-ranking` cannot run with; the message is for the person who typed it. */
export class FitOptionsError extends Error {
  override name = 'FitOptionsError';
}

/** The options of a command line (`process.argv.slice(2)`); throws `FitOptionsError` naming what is wrong. */
export function parseFitOptions(argv: readonly string[]): FitOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new FitOptionsError((error as Error).message);
  }
  const retrieval = retrievalOption(values.retrieval);
  const pool = poolOption(values.pool, '--pool', retrieval);
  const setWeight = values['set-weight'];
  if (setWeight !== 'equal' && setWeight !== 'sqrt') {
    throw new FitOptionsError(`--set-weight: expected equal or sqrt, got "${setWeight}"`);
  }
  const archiveWeight = Number(values['archive-weight']);
  if (!(archiveWeight > 0)) {
    throw new FitOptionsError(
      `--archive-weight: expected a positive number, got "${values['archive-weight']}"`,
    );
  }
  return {
    dryRun: values['dry-run'],
    out: values.out,
    archive: !values['no-archive'],
    cache: values.cache,
    rankingFrom: values['ranking-from'],
    rankingFree: values['ranking-free'],
    confidenceFrom: values['confidence-from'],
    rankingSubset: values['ranking-subset'],
    rankingL2: numberOption(values['ranking-l2'], '--ranking-l2'),
    confidenceSubset: values['confidence-subset'],
    confidenceL2: numberOption(values['confidence-l2'], '--confidence-l2'),
    search: !values['no-search'],
    pool,
    measurePool: poolOption(values['measure-pool'], '--measure-pool', pool),
    retrieval,
    setWeight,
    archiveWeight,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      'dry-run': { type: 'boolean', default: false },
      out: { type: 'string' },
      'no-archive': { type: 'boolean', default: false },
      cache: { type: 'string' },
      'ranking-from': { type: 'string' },
      'ranking-free': { type: 'string' },
      'confidence-from': { type: 'string' },
      'ranking-subset': { type: 'string' },
      'ranking-l2': { type: 'string' },
      'confidence-subset': { type: 'string' },
      'confidence-l2': { type: 'string' },
      'no-search': { type: 'boolean', default: false },
      pool: { type: 'string' },
      'measure-pool': { type: 'string' },
      retrieval: { type: 'string' },
      'set-weight': { type: 'string', default: 'sqrt' },
      'archive-weight': { type: 'string', default: '1' },
    },
  });
}

function retrievalOption(value: string | undefined): RetrievalSettings {
  if (value === undefined) return RETRIEVAL;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new FitOptionsError(
      `--retrieval: expected a JSON object such as '{"postingBudget":5000}', got "${value}"`,
    );
  }
  try {
    return parseRetrievalSettings(parsed, '--retrieval');
  } catch (error) {
    throw new FitOptionsError((error as Error).message);
  }
}

function numberOption(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) {
    throw new FitOptionsError(`${option}: expected a number of 0 or more, got "${value}"`);
  }
  return number;
}

function poolOption(value: string | undefined, option: string, otherwise: Pool): Pool {
  if (value === undefined) return otherwise;
  const [candidates, articleCandidates, ...rest] = value.split(',').map(Number);
  if (rest.length > 0 || !Number.isInteger(candidates) || !Number.isInteger(articleCandidates))
    throw new FitOptionsError(
      `${option}: expected two whole numbers, passages and articles (40,3), got "${value}"`,
    );
  return { candidates: candidates!, articleCandidates: articleCandidates! };
}

import { describe, expect, it } from 'vitest';
import { FitOptionsError, parseFitOptions } from '../../../bench/fitting/options.ts';
import { RETRIEVAL } from '../../../src/search/retrieval.ts';

describe("fit-ranking's options", () => {
  it('fits everything on the engine’s pool by default, and writes the model', () => {
    const options = parseFitOptions([]);
    expect(options).toMatchObject({
      dryRun: false,
      archive: true,
      search: true,
      setWeight: 'sqrt',
      archiveWeight: 1,
    });
    expect(options.pool).toMatchObject({
      candidates: RETRIEVAL.candidates,
      articleCandidates: RETRIEVAL.articleCandidates,
    });
    expect(options.measurePool).toBe(options.pool);
    expect(options.retrieval).toBe(RETRIEVAL);
  });

  it('measures with other retrieval settings, their pool by default', () => {
    const options = parseFitOptions(['--retrieval', '{"postingBudget":5000,"candidates":60}']);
    expect(options.retrieval).toEqual({ ...RETRIEVAL, postingBudget: 5000, candidates: 60 });
    expect(options.pool).toMatchObject({ candidates: 60, articleCandidates: RETRIEVAL.articleCandidates });
  });

  it('reads each option by its name', () => {
    const options = parseFitOptions([
      '--dry-run',
      '--no-archive',
      '--pool',
      '60,4',
      '--measure-pool',
      '100,6',
      '--ranking-subset',
      'no neighbours',
      '--ranking-l2',
      '0.1',
      '--archive-weight',
      '2',
    ]);
    expect(options).toMatchObject({
      dryRun: true,
      archive: false,
      pool: { candidates: 60, articleCandidates: 4 },
      measurePool: { candidates: 100, articleCandidates: 6 },
      rankingSubset: 'no neighbours',
      rankingL2: 0.1,
      archiveWeight: 2,
    });
  });

  it('refuses what it cannot run with in plain words', () => {
    expect(() => parseFitOptions(['--pool', '40'])).toThrow(FitOptionsError);
    expect(() => parseFitOptions(['--pool', '40'])).toThrow('--pool: expected two whole numbers');
    expect(() => parseFitOptions(['--set-weight', 'half'])).toThrow('--set-weight: expected equal or sqrt');
    expect(() => parseFitOptions(['--archive-weight', '0'])).toThrow(
      '--archive-weight: expected a positive number',
    );
    expect(() => parseFitOptions(['--ranking-l2', 'strong'])).toThrow('--ranking-l2: expected a number');
    expect(() => parseFitOptions(['--no-such-option'])).toThrow(FitOptionsError);
    expect(() => parseFitOptions(['--retrieval', '{postingBudget:5000}'])).toThrow(
      '--retrieval: expected a JSON object',
    );
    expect(() => parseFitOptions(['--retrieval', '{"postingBudgets":5000}'])).toThrow(
      /--retrieval: expected an object of retrieval settings/,
    );
  });
});

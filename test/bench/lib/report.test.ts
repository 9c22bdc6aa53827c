import { describe, expect, it } from 'vitest';
import type { EngineMeasurement, MeasurementOutcome } from '../../../bench/lib/measurement.ts';
import { checkTargets, growthRatios, peerRatios } from '../../../bench/lib/report.ts';

function measurement(
  engine: string,
  corpusName: string,
  figures: { passages: number; buildMs: number; heap: number; p99: number; hitAt5: number },
): EngineMeasurement {
  const latency = {
    count: 10,
    p50: figures.p99 / 2,
    p90: figures.p99,
    p99: figures.p99,
    max: figures.p99,
    mean: 1,
    perSecond: 1,
  };
  return {
    engine,
    corpusName,
    passages: figures.passages,
    buildMs: figures.buildMs * 2,
    buildCpuMs: figures.buildMs,
    indexHeapBytes: figures.heap,
    heapUsedBytes: figures.heap,
    rssBytes: figures.heap,
    indexRssBytes: figures.heap,
    latency,
    cpuPerQueryMs: figures.p99 / 4,
    quality: {
      questions: 10,
      hitAt1: figures.hitAt5 / 2,
      hitAt5: figures.hitAt5,
      mrrAt5: figures.hitAt5 / 2,
    },
    questionsAvailable: 10,
    truncated: false,
    persistence: null,
    memorySettled: true,
  };
}

const small = { passages: 1000, buildMs: 100, heap: 1_000_000 };
const large = { passages: 10_000, buildMs: 1100, heap: 11_000_000 };

const run: MeasurementOutcome[] = [
  measurement('newsdesk', 'small', { ...small, p99: 2, hitAt5: 0.6 }),
  measurement('lunr', 'small', { ...small, p99: 1, hitAt5: 0.4 }),
  measurement('newsdesk', 'large', { ...large, p99: 5, hitAt5: 0.55 }),
  measurement('lunr', 'large', { ...large, p99: 3, hitAt5: 0.35 }),
  measurement('minisearch', 'large', { ...large, p99: 8, hitAt5: 0.3 }),
];

describe('checkTargets', () => {
  it('judges each target at the largest size measured', () => {
    const checks = checkTargets(run);
    expect(checks.map((check) => check.status)).toEqual(['PASS', 'PASS', 'PASS', 'PASS', 'PASS']);
    expect(checks[0]!.detail).toBe('5.00 ms vs lunr 3.00 ms (ratio 1.67)');
    expect(checks[0]!.target).toContain('at large');
  });

  it('fails the latency target when our p99 is more than twice lunr’s', () => {
    const slower = run.map((outcome) =>
      outcome.engine === 'newsdesk' && outcome.corpusName === 'large'
        ? measurement('newsdesk', 'large', { ...large, p99: 6.1, hitAt5: 0.55 })
        : outcome,
    );
    expect(checkTargets(slower)[0]!.status).toBe('FAIL');
  });

  it('fails the quality target when a peer that crashed at the largest size cannot be compared', () => {
    const withCrash: MeasurementOutcome[] = [
      ...run,
      { engine: 'orama', corpusName: 'large', error: 'out of memory' },
    ];
    const quality = checkTargets(withCrash)[2]!;
    expect(quality.status).toBe('FAIL');
    expect(quality.detail).toContain('not measured: orama');
  });

  it('fails linear growth when per-passage build CPU time grows by more than 1.2x', () => {
    const superlinear = run.map((outcome) =>
      outcome.engine === 'newsdesk' && outcome.corpusName === 'large'
        ? measurement('newsdesk', 'large', { ...large, buildMs: 1300, p99: 5, hitAt5: 0.55 })
        : outcome,
    );
    const build = checkTargets(superlinear)[3]!;
    expect(build.status).toBe('FAIL');
    expect(build.detail).toBe('small -> large: 1.30x');
  });

  it('skips every target when our engine was not measured', () => {
    const peersOnly = run.filter((outcome) => outcome.engine !== 'newsdesk');
    expect(checkTargets(peersOnly).every((check) => check.status === 'SKIP')).toBe(true);
  });

  it('skips the growth targets when only one size was measured', () => {
    const oneSize = run.filter((outcome) => outcome.corpusName === 'small');
    expect(
      checkTargets(oneSize)
        .slice(3, 5)
        .map((check) => check.status),
    ).toEqual(['SKIP', 'SKIP']);
  });
});

describe('growthRatios', () => {
  it('divides per-passage cost at the largest size by that at the smallest', () => {
    const growth = growthRatios(run);
    expect(growth.map(({ engine, from, to }) => [engine, from, to])).toEqual([
      ['newsdesk', 'small', 'large'],
      ['lunr', 'small', 'large'],
    ]);
    for (const ratio of growth) {
      expect(ratio.buildPerPassage).toBeCloseTo(1.1);
      expect(ratio.heapPerPassage).toBeCloseTo(1.1);
    }
  });
});

describe('peerRatios', () => {
  it('compares our engine with each peer measured at the same size', () => {
    const p99 = peerRatios(run).filter((ratio) => ratio.metric === 'query p99');
    expect(p99).toEqual([
      { corpusName: 'small', metric: 'query p99', peer: 'lunr', ratio: 2 },
      { corpusName: 'large', metric: 'query p99', peer: 'lunr', ratio: 5 / 3 },
      { corpusName: 'large', metric: 'query p99', peer: 'minisearch', ratio: 5 / 8 },
    ]);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DatedOutcome,
  datedLines,
  datedTarget,
  measureDatedModes,
} from '../../../bench/lib/dated-modes.ts';
import { summarizeLatencies } from '../../../bench/lib/percentiles.ts';
import { loadCorpus } from '../../../src/corpus/load-corpus.ts';
import { Engine } from '../../../src/search/engine.ts';
import { DATED_CORPUS } from '../../support/temp-corpus.ts';

function outcome(p99: { ask: number; filtered: number; timeline: number }): DatedOutcome {
  const mode = (ms: number) => ({
    wall: summarizeLatencies([ms / 2, ms]),
    cpu: summarizeLatencies([ms / 4, ms]),
  });
  return {
    corpusName: 'full',
    passages: 1000,
    modes: { ask: mode(p99.ask), 'ask-filtered': mode(p99.filtered), timeline: mode(p99.timeline) },
  };
}

describe('measureDatedModes', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(DATED_CORPUS));
  });

  it('asks every question as /ask, filtered /ask and /timeline, and times each', () => {
    const questions = ['When did the Gravelines dock strike end?', 'Who bought the port?', 'dock strike'];
    const modes = measureDatedModes(engine, questions);
    for (const mode of Object.values(modes)) {
      expect(mode.wall.count).toBe(3);
      expect(mode.cpu.count).toBe(3);
      expect(mode.wall.p99).toBeGreaterThan(0);
    }
  });

  it('stops asking when its budget is spent', () => {
    expect(measureDatedModes(engine, ['dock strike', 'port sale'], 0).ask.wall.count).toBe(1);
  });
});

describe('datedTarget', () => {
  it('passes when both variants stay within 1.1x the unfiltered /ask p99 of CPU time', () => {
    const check = datedTarget(outcome({ ask: 10, filtered: 8, timeline: 11 }));
    expect(check.status).toBe('PASS');
    expect(check.detail).toBe('ask-filtered 0.80x (wall 0.80x), timeline 1.10x (wall 1.10x) at full');
  });

  it('fails when one is slower, and skips when nothing was measured', () => {
    expect(datedTarget(outcome({ ask: 10, filtered: 8, timeline: 12 })).status).toBe('FAIL');
    expect(datedTarget(undefined).status).toBe('SKIP');
    expect(datedTarget({ error: 'child exited' }).status).toBe('SKIP');
  });
});

describe('datedLines', () => {
  it('prints each mode with its p99 over the unfiltered /ask', () => {
    const lines = datedLines(outcome({ ask: 10, filtered: 5, timeline: 20 })).join('\n');
    expect(lines).toMatch(/ask-filtered\s+2\s+2\.5\s+5\.0\s+0\.50x\s+1\.3\s+5\.0\s+0\.50x/);
    expect(lines).toMatch(/timeline\s+2\s+10\.0\s+20\.0\s+2\.00x/);
    expect(datedLines({ error: 'timed out\nstack' })).toEqual([
      'Filtered /ask and /timeline (issue 11): FAILED: timed out',
    ]);
  });
});

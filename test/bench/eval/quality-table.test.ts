import { describe, expect, it } from 'vitest';
import { summarizeHalves } from '../../../bench/eval/outcome.ts';
import { qualityTable, trustTable } from '../../../bench/eval/quality-table.ts';

describe('qualityTable', () => {
  it('prints one row per half with the figures that apply and dashes for the rest', () => {
    const halves = summarizeHalves([
      {
        id: 'o-1',
        half: 'tune',
        answerable: false,
        rank: null,
        empty: true,
        outOfPeriod: false,
        quoteHolds: null,
        assurance: 'none',
        asksStory: false,
        getsThere: null,
        ms: 0.5,
      },
      {
        id: 'o-2',
        half: 'test',
        answerable: false,
        rank: null,
        empty: false,
        outOfPeriod: true,
        quoteHolds: null,
        assurance: 'closest',
        asksStory: false,
        getsThere: null,
        ms: 1.5,
      },
    ]);
    const lines = qualityTable([{ run: 'off-topic', corpus: 'full', engine: 'newsdesk', halves }]).split(
      '\n',
    );
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^set\s+corpus\s+engine\s+half\s+n\s+hit@1/);
    expect(lines[2]!.split(/\s+/)).toEqual([
      'off-topic',
      'full',
      'newsdesk',
      'tune',
      '1',
      '-',
      '-',
      '-',
      '-',
      '1.000',
      '1',
      '0',
      '-',
      '0.50',
      '0.50',
    ]);
    expect(lines[3]!.split(/\s+/)).toEqual([
      'off-topic',
      'full',
      'newsdesk',
      'test',
      '1',
      '-',
      '-',
      '-',
      '-',
      '0.000',
      '0',
      '1',
      '-',
      '1.50',
      '1.50',
    ]);
  });

  it('prints how sure the replies are: kinds of reply, "Which story?", hit@3 among answers, gets there', () => {
    const halves = summarizeHalves([
      {
        id: 'a-1',
        half: 'tune',
        answerable: true,
        rank: 2,
        empty: false,
        outOfPeriod: false,
        quoteHolds: null,
        assurance: 'answer',
        asksStory: false,
        getsThere: true,
        ms: 1,
      },
      {
        id: 'a-2',
        half: 'tune',
        answerable: true,
        rank: null,
        empty: false,
        outOfPeriod: false,
        quoteHolds: null,
        assurance: 'closest',
        asksStory: true,
        getsThere: false,
        ms: 1,
      },
    ]);
    const lines = trustTable([{ run: 'seed', corpus: 'seed', engine: 'newsdesk', halves }]).split('\n');
    expect(lines[0]).toMatch(/^set\s+corpus\s+engine\s+half\s+n\s+answer\s+closest\s+none\s+story\?/);
    expect(lines[2]!.split(/\s+/)).toEqual([
      'seed',
      'seed',
      'newsdesk',
      'tune',
      '2',
      '0.500',
      '0.500',
      '0.000',
      '0.500',
      '1.000',
      '1',
      '0.500',
      '0.500',
    ]);
  });
});

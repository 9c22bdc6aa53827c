import { describe, expect, it } from 'vitest';
import { groupQuestions } from '../../src/community/gaps.ts';
import { renderGapsPage } from '../../src/interactions/render/gaps.ts';
import { finalizeReply, payloadViolations } from '../../src/interactions/render/payload.ts';

const at = (hour: number) => new Date(Date.UTC(2026, 5, 1, hour));

/** Questions members might ask that a small news archive does not cover, as they would type them. */
const FIXTURE: [string, number][] = [
  ['When will the Gravelines bridge reopen?', 1],
  ['when will the gravelines bridge reopen?', 5],
  ['gravelines bridge reopening date', 3],
  ['Is the bridge at Gravelines reopened yet', 9],
  ['Who won the Dunkirk half marathon?', 2],
  ['dunkirk marathon winner', 4],
  ['Why were the bins not collected in Calais this week?', 6],
  ['calais bin collection late', 7],
  ['train strike dates', 8],
  ['strike?', 10],
  ['teacher strike in Lille', 11],
  ['what is the weather tomorrow', 12],
];

describe('GIVEN questions without coverage', () => {
  const groups = groupQuestions(FIXTURE.map(([question, hour]) => ({ question, askedAt: at(hour) })));
  const find = (representative: RegExp) => groups.find((group) => representative.test(group.representative));

  it('groups questions sharing their distinctive words, most asked first (then most recently asked)', () => {
    expect(groups.map((group) => [group.count, group.representative])).toEqual([
      [4, 'When will the Gravelines bridge reopen?'],
      [2, 'train strike dates'],
      [2, 'Why were the bins not collected in Calais this week?'],
      [2, 'Who won the Dunkirk half marathon?'],
      [1, 'what is the weather tomorrow'],
      [1, 'teacher strike in Lille'],
    ]);
  });

  it('counts the same wording however it is typed once, and gives first and last asked', () => {
    const bridge = find(/bridge/);
    expect(bridge?.wordings[0]).toEqual({ question: 'When will the Gravelines bridge reopen?', count: 2 });
    expect(bridge?.wordings).toHaveLength(3);
    expect(bridge?.firstAsked).toEqual(at(1));
    expect(bridge?.lastAsked).toEqual(at(9));
    expect(bridge?.words).toEqual(['gravelines', 'bridge', 'reopen']);
  });

  it('keeps questions that share only a word apart: one strike is not every strike', () => {
    expect(find(/^train strike/)?.wordings.map((w) => w.question)).toEqual(['train strike dates', 'strike?']);
    expect(find(/teacher/)?.count).toBe(1);
  });
});

describe('GIVEN a report longer than one Discord message', () => {
  const questions = Array.from({ length: 20 }, (_, i) => ({
    question: `Question number ${i} about subject${i} and topic${i}`,
    askedAt: at(i % 24),
  }));
  const report = {
    days: 30,
    from: at(0),
    to: at(23),
    questionsRecorded: true,
    unanswered: questions.length,
    groups: groupQuestions(questions),
    unhelpful: [],
  };

  it('/gaps pages it within Discord’s limits, with Previous and Next carrying the page and period', () => {
    const first = renderGapsPage(report, 0);
    const last = renderGapsPage(report, 2);
    expect(payloadViolations(finalizeReply(first))).toEqual([]);
    expect(first.embeds?.[0]?.footer?.text).toMatch(/^Page 1 of 3/);
    expect(first.embeds?.[0]?.description?.match(/\*\*\d+\.\*\*/g)).toHaveLength(8);
    const row = first.components?.[0] as
      | { components: { custom_id: string; disabled: boolean }[] }
      | undefined;
    const buttons = row?.components ?? [];
    expect(buttons.map((b) => [b.custom_id, b.disabled])).toEqual([
      ['gaps:page:-1:30', true],
      ['gaps:page:1:30', false],
    ]);
    expect(last.embeds?.[0]?.description).toMatch(/\*\*17\.\*\*/);
    expect(last.embeds?.[0]?.description?.match(/\*\*\d+\.\*\*/g)).toHaveLength(4);
    expect(renderGapsPage(report, 99).embeds?.[0]?.footer?.text).toMatch(/^Page 3 of 3/);
  });
});

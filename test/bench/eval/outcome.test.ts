import { describe, expect, it } from 'vitest';
import {
  type EvalQuestion,
  type QuestionOutcome,
  scoreQuestion,
  summarize,
  summarizeHalves,
} from '../../../bench/eval/outcome.ts';

// Passages from the seed article corpus/teteghem-mayor-threatened-with-gun.md.
const article = 'teteghem-mayor-threatened-with-gun';
const answering = {
  article,
  passage:
    'Dhersin said the traffickers were "very violent and just want to make money." He also added that what he calls the "English mafia" has been present in the region for years but that with the renewed influx of migrants, they have gotten much more organized.',
  quote:
    'He also added that what he calls the "English mafia" has been present in the region for years but that with the renewed influx of migrants, they have gotten much more organized.',
};
const lede = {
  article,
  passage:
    'British traffickers who were smuggling migrants from France to the United Kingdom have allegedly threatened a French mayor with a gun, the BBC reports.',
  quote:
    'British traffickers who were smuggling migrants from France to the United Kingdom have allegedly threatened a French mayor with a gun, the BBC reports.',
};
const howLong: EvalQuestion = {
  id: 'seed-003',
  question: 'How long has the English mafia been operating in the region?',
  article,
  answer: 'for years',
  half: 'tune',
};
const offTopic: EvalQuestion = {
  id: 'off-topic-001',
  question: 'Who won the 2022 FIFA World Cup final?',
  article: null,
  answer: null,
  half: 'tune',
};

describe('scoreQuestion', () => {
  it('ranks the first passage of the right article that holds the answer', () => {
    const outcome = scoreQuestion(howLong, [lede, answering], 2);
    expect(outcome).toMatchObject({ rank: 2, empty: false, answerable: true, quoteHolds: null, ms: 2 });
  });

  it('checks the quote of a rank-1 hit against the answer', () => {
    expect(scoreQuestion(howLong, [answering], 1).quoteHolds).toBe(true);
    const wrongSentence = {
      ...answering,
      quote: 'Dhersin said the traffickers were "very violent and just want to make money."',
    };
    expect(scoreQuestion(howLong, [wrongSentence], 1).quoteHolds).toBe(false);
  });

  it('leaves quote accuracy unmeasured for an engine that gives no quote', () => {
    const { quote: _, ...withoutQuote } = answering;
    expect(scoreQuestion(howLong, [withoutQuote], 1)).toMatchObject({ rank: 1, quoteHolds: null });
  });

  it('does not count the answer text from another article', () => {
    const elsewhere = { ...answering, article: 'calais-mayor-renews-border-threat' };
    expect(scoreQuestion(howLong, [elsewhere], 1).rank).toBeNull();
  });

  it('records an empty answer, and never a hit, for an off-topic question', () => {
    expect(scoreQuestion(offTopic, [], 1)).toMatchObject({ answerable: false, rank: null, empty: true });
    expect(scoreQuestion(offTopic, [lede], 1)).toMatchObject({ answerable: false, rank: null, empty: false });
  });

  it('takes the results of an engine that only ranks as an answer, and an empty list as "no coverage"', () => {
    expect(scoreQuestion(howLong, [answering], 1)).toMatchObject({ assurance: 'answer', getsThere: true });
    expect(scoreQuestion(offTopic, [], 1)).toMatchObject({ assurance: 'none', getsThere: null });
  });

  it('says a member gets there from the first 3 of the reply, or, when it asks which story, from the right one', () => {
    const reply = { results: [lede, lede, lede, answering], assurance: 'answer' as const };
    expect(scoreQuestion(howLong, reply, 1).getsThere).toBe(false);
    const direct = { results: [answering], assurance: 'closest' as const };
    expect(scoreQuestion(howLong, direct, 1)).toMatchObject({ assurance: 'closest', getsThere: true });
    const asking = { ...direct, stories: [{ article }, { article: 'other' }] };
    // Asking which story, the reply's own passages do not count: the member chooses first.
    expect(scoreQuestion(howLong, asking, 1)).toMatchObject({ asksStory: true, getsThere: false });
    expect(scoreQuestion(howLong, asking, 1, 2).getsThere).toBe(true);
    expect(scoreQuestion(howLong, asking, 1, null).getsThere).toBe(false);
  });

  it('records an answer given as the closest coverage to a period that has none', () => {
    expect(scoreQuestion(offTopic, [lede], 1).outOfPeriod).toBe(false);
    expect(scoreQuestion(offTopic, [{ ...lede, outOfPeriod: true }], 1)).toMatchObject({
      empty: false,
      outOfPeriod: true,
    });
  });
});

function outcome(
  half: 'tune' | 'test',
  rank: number | null,
  extra: Partial<QuestionOutcome> = {},
): QuestionOutcome {
  return {
    id: `q-${half}-${rank}`,
    half,
    answerable: true,
    rank,
    empty: false,
    outOfPeriod: false,
    quoteHolds: null,
    assurance: 'answer',
    asksStory: false,
    getsThere: rank !== null && rank <= 3,
    ms: 1,
    ...extra,
  };
}

describe('summarize', () => {
  it('gives hit@1, hit@3, hit@5 and MRR@5 over answerable questions only', () => {
    const summary = summarize([
      outcome('tune', 1, { quoteHolds: true }),
      outcome('tune', 3),
      outcome('tune', null, { empty: true }),
      outcome('tune', null, { answerable: false, empty: true }),
    ]);
    expect(summary).toMatchObject({
      questions: 4,
      hitAt1: 1 / 3,
      hitAt3: 2 / 3,
      hitAt5: 2 / 3,
      empty: 0.5,
      emptyCount: 2,
    });
    expect(summary.mrrAt5).toBeCloseTo((1 + 1 / 3) / 3);
    expect(summary.quoteAccuracy).toBe(1);
    expect(summary.quoted).toBe(1);
  });

  it('gives no hit figures for a set of off-topic questions, only the empty share and the closest-coverage answers', () => {
    const summary = summarize([
      outcome('test', null, { answerable: false, empty: true }),
      outcome('test', null, { answerable: false }),
      outcome('test', null, { answerable: false, outOfPeriod: true }),
    ]);
    expect(summary).toMatchObject({
      hitAt1: null,
      hitAt5: null,
      mrrAt5: null,
      empty: 1 / 3,
      outOfPeriodCount: 1,
      quoteAccuracy: null,
    });
  });

  it('gives the share of each kind of reply, hit@3 among answers, and how often a member gets there', () => {
    const summary = summarize([
      outcome('tune', 1),
      outcome('tune', 4, { getsThere: true, asksStory: true }),
      outcome('tune', 2, { assurance: 'closest' }),
      outcome('tune', null, { assurance: 'none', empty: true }),
    ]);
    expect(summary).toMatchObject({
      answered: 0.5,
      closest: 0.25,
      empty: 0.25,
      asksStory: 0.25,
      answerHitAt3: 0.5,
      answers: 2,
      getsThere: 0.75,
    });
  });

  it('reports p50 and p99 of the search times', () => {
    const times = Array.from({ length: 100 }, (_, index) => outcome('tune', 1, { ms: index + 1 }));
    expect(summarize(times).latencyMs).toEqual({ p50: 50, p99: 99 });
    expect(summarize([]).latencyMs).toBeNull();
  });
});

describe('summarizeHalves', () => {
  it('keeps the tuning half and the test half apart', () => {
    const halves = summarizeHalves([outcome('tune', 1), outcome('test', null), outcome('test', 2)]);
    expect(halves.tune.hitAt1).toBe(1);
    expect(halves.test).toMatchObject({ questions: 2, hitAt1: 0, hitAt3: 0.5 });
    expect(halves.all.questions).toBe(3);
  });
});

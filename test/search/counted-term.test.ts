import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { analyze, tokenize } from '../../src/search/analyze.ts';
import { countedTerm, countsTerm } from '../../src/search/counted-term.ts';
import { Engine } from '../../src/search/engine.ts';

const term = (word: string) => analyze(word)[0];

// Issue 10, seventh session: a "how many" question is answered by the paragraph where a number stands
// before what it counts (the ranking feature `countsAsked`).
describe('what a "how many" question counts', () => {
  it('reads the word after "how many" or "how much", and nothing when a verb follows', () => {
    expect(countedTerm('How many stolen credit card numbers did the Shadowcrew gang trade?')).toBe(
      term('stolen'),
    );
    expect(countedTerm('How much gold does the IMF hold?')).toBe(term('gold'));
    expect(countedTerm('how many euros do the people smugglers at the jungle charge')).toBe(term('euros'));
    expect(countedTerm('how much did the syrian guy spend getting from syria to france')).toBeUndefined();
    expect(countedTerm('Who threatened the mayor of Teteghem?')).toBeUndefined();
  });

  it('GIVEN passages of the BBC archive THEN finds the count the question asks for, not another number', () => {
    // From bbc-tech-120 and bbc-business-210: the paragraphs that answer two BBC/Reuters questions.
    const cards =
      '"We believe that the suspects have trafficked at least 1.7 million stolen credit card numbers, leading to losses by financial institutions running into the millions."';
    expect(countsTerm(tokenize(cards), term('stolen')!)).toBe(true);
    const gold = 'The IMF has 3,217 tonnes of gold, or about 113.5m ounces.';
    expect(countsTerm(tokenize(gold), term('gold')!)).toBe(true);
    // The same article's second paragraph has gold and numbers, but no count of gold.
    const reserves =
      'IMF boss Rodrigo Rato was asked by G7 ministers to carry out a study into the feasibility of revaluing and selling gold reserves.';
    expect(countsTerm(tokenize(reserves), term('gold')!)).toBe(false);
  });

  it('takes a currency sign before its number as the sum: "£1,800" for "how many pounds"', () => {
    expect(countsTerm(tokenize('spending £1,800 on a seven-foot-high wall'), term('pounds')!)).toBe(true);
    expect(countsTerm(tokenize('7,000 pounds'), term('pounds')!)).toBe(true);
    expect(countsTerm(tokenize('the pound fell against the dollar'), term('pounds')!)).toBe(false);
  });
});

describe('the counted word in the seed articles', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
  });

  it('GIVEN "How many pounds did the 48-year-old man spend on a wall?" THEN the paragraph with £1,800 counts it and the answer comes first', () => {
    const question = 'How many pounds did the 48-year-old man spend on a wall?';
    const candidates = engine.candidatesForFitting(question);
    const wall = candidates.find((c) => c.passage.includes('£1,800'))!;
    expect(wall.features.countsAsked).toBe(1);
    expect(candidates.filter((c) => c.features.countsAsked === 1).length).toBeLessThan(candidates.length);
    expect(engine.answer(question).results[0]?.passage).toContain(
      'spending £1,800 on a seven-foot-high wall',
    );
  });
});

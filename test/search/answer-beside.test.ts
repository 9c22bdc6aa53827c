import { describe, expect, it } from 'vitest';
import { analyze, tokenize } from '../../src/search/analyze.ts';
import { answerBeside } from '../../src/search/answer-beside.ts';

/** The feature for a question over a passage, every question term weighing 1. */
function beside(question: string, passage: string, type: Parameters<typeof answerBeside>[4]): number {
  const asked = new Set(analyze(question));
  const tokens = tokenize(passage);
  const matched = new Map(
    [...asked].filter((term) => tokens.some((t) => t.term === term)).map((t) => [t, 1]),
  );
  const isKnown = (mention: string) => analyze(mention).every((term) => asked.has(term));
  return answerBeside(passage, tokens, matched, asked.size, type, isKnown);
}

describe('answerBeside: the asked-for fact said of the question’s own words', () => {
  it('GIVEN "whereabouts is teteghem" THEN "Teteghem, near Dunkirk" counts and "the camp near Téteghem" does not', () => {
    expect(
      beside(
        'whereabouts is teteghem',
        'It comes as the mayor of another French border town Teteghem, near Dunkirk, told the BBC that the “English mafia” were involved.',
        'place',
      ),
    ).toBe(1);
    // The only place named is the one asked about: it cannot be the answer.
    expect(
      beside(
        'whereabouts is teteghem',
        'A member of one of the gangs threatened Ukip MEP Mike Hookem with a pistol as he visited the camp near Téteghem.',
        'place',
      ),
    ).toBe(0);
  });

  it('GIVEN "how old is Madeleine Darneux?" THEN her age beside her name counts', () => {
    expect(
      beside(
        'How old is Madeleine Darneux?',
        'Madeleine Darneux, 39, said she felt threatened by smugglers.',
        'quantity',
      ),
    ).toBeCloseTo(2 / 3);
  });

  it('GIVEN a number far from the question’s words THEN nothing counts', () => {
    expect(
      beside(
        'How old is Madeleine Darneux?',
        'Madeleine Darneux said she felt threatened by smugglers who loitered near her home in cars with black-tinted windows, some 12 of them.',
        'quantity',
      ),
    ).toBe(0);
  });

  it('GIVEN a "who" question THEN names beside its words do not count: they are mostly the one it names', () => {
    expect(
      beside(
        'Who threatened the mayor of Teteghem?',
        'The mayor of Teteghem, Franck Dhersin, told the BBC that smugglers barred him from entering the camp.',
        'person',
      ),
    ).toBe(0);
  });
});

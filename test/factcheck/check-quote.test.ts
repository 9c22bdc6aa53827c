import { beforeAll, describe, expect, it } from 'vitest';
import { quoteCases } from '../../bench/lib/quote-cases.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { checkQuote } from '../../src/factcheck/check-quote.ts';
import { quotationIn } from '../../src/factcheck/quotation-in.ts';
import { speakerOf } from '../../src/factcheck/speaker.ts';
import { Engine } from '../../src/search/engine.ts';

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

describe('GIVEN the seed corpus', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus('corpus'));
  });

  it('finds a sentence quoted word for word verbatim, whatever its case and quotation marks', async () => {
    const check = await checkQuote(engine, '“the traffickers were very violent and just want to make money”');
    expect(check.verdict).toBe('verbatim');
    expect(check.source?.citation).toBe(`${TETEGHEM}#4`);
    expect(check.diff).toEqual([
      { op: 'same', text: 'the traffickers were "very violent and just want to make money."' },
    ]);
    expect(check.speaker).toBe('Dhersin');
  });

  it('calls a changed function word close, and marks it', async () => {
    const check = await checkQuote(
      engine,
      'Local police have advised a mayor not to try and return to the camp.',
    );
    expect(check.verdict).toBe('close');
    expect(check.diff).toContainEqual({ op: 'dropped', text: 'the' });
    expect(check.diff).toContainEqual({ op: 'added', text: 'a' });
  });

  it('calls a changed sum altered, showing both figures', async () => {
    const check = await checkQuote(
      engine,
      'He said he had spent over $20,000 traveling from Syria to France',
    );
    expect(check.verdict).toBe('altered');
    expect(check.source?.citation).toBe(`${TETEGHEM}#5`);
    expect(check.diff).toContainEqual({ op: 'dropped', text: '$18,000' });
    expect(check.diff).toContainEqual({ op: 'added', text: '$20,000' });
  });

  it('calls a dropped negation altered', async () => {
    const check = await checkQuote(
      engine,
      'Local police have advised the mayor to try and return to the camp.',
    );
    expect(check.verdict).toBe('altered');
    expect(check.diff).toContainEqual({ op: 'dropped', text: 'not' });
  });

  it('shows a clause left out as dropped words, and calls it altered', async () => {
    const check = await checkQuote(
      engine,
      'The situation in Calais has been escalating over the last few weeks, hoping to pass into the UK.',
    );
    expect(check.verdict).toBe('altered');
    expect(check.diff).toContainEqual({
      op: 'dropped',
      text: 'with thousands of migrants now camped near the Euro Tunnel',
    });
  });

  it('says not-found for words the coverage never carried, with no citation', async () => {
    const check = await checkQuote(
      engine,
      'The prime minister announced a new budget for schools on Tuesday.',
    );
    expect(check).toMatchObject({
      verdict: 'not-found',
      source: null,
      diff: [],
      speaker: null,
      earliest: null,
    });
  });

  it('finds the passage of a misquote that rewords a clause and changes its figures at once, and calls it altered with the figures in the diff', async () => {
    for (const quote of [
      'smugglers are charging migrants up to €70,000 (£50,000) in exchange for passage across the border to Britain',
      'smugglers are charging migrants up to €70,000 in exchange for passage across the border to Britain',
    ]) {
      const check = await checkQuote(engine, quote);
      expect(check.verdict, quote).toBe('altered');
      expect(check.source?.citation).toBe('calais-mayor-threatens-to-open-borders#2');
      expect(check.diff).toContainEqual({ op: 'added', text: expect.stringContaining('€70,000') });
      expect(check.diff).toContainEqual({ op: 'dropped', text: expect.stringContaining('€7,000') });
    }
  });

  it('gets the verdict of every case made from the seed articles right, with the right passage', async () => {
    const cases = quoteCases(engine.corpus.articles, {
      seed: 18,
      perKind: 20,
      elsewhere: [
        'Ministers will publish the schools white paper next month after a long consultation.',
        'The club confirmed the striker had signed a three-year contract on Friday evening.',
      ],
    });
    expect(new Set(cases.map((c) => c.kind)).size).toBe(8);
    const wrong: string[] = [];
    for (const testCase of cases) {
      const check = await checkQuote(engine, testCase.text);
      const rightPassage =
        testCase.citation === null ||
        check.source?.passage.replace(/\W+/g, '').includes(testCase.original.replace(/\W+/g, ''));
      if (check.verdict !== testCase.expected || !rightPassage)
        wrong.push(`${testCase.kind}: ${check.verdict} for "${testCase.text}"`);
    }
    // The eval (npm run eval:quotes) holds the targets on NewsQA; the seed articles must be all but clean.
    expect(wrong.length, wrong.join('\n')).toBeLessThanOrEqual(Math.floor(cases.length * 0.03));
  });
});

describe('speakerOf', () => {
  it('reads the name beside a verb of saying, not a place, and no one from a pronoun', () => {
    expect(speakerOf('The mayor of Teteghem, Franck Dhersin, told the BBC that he was threatened')).toBe(
      'Franck Dhersin',
    );
    expect(speakerOf('"We will open the borders," said Natacha Bouchart, the mayor of Calais.')).toBe(
      'Natacha Bouchart',
    );
    expect(speakerOf('Natacha Bouchart, the mayor of Calais, said she would act.')).toBe('Natacha Bouchart');
    expect(speakerOf('He said the situation was untenable.')).toBeNull();
  });
});

describe('quotationIn', () => {
  it('takes the words in quotation marks out of a message, or the whole message', () => {
    expect(quotationIn('lol she said "we will open the borders" yesterday')).toBe('we will open the borders');
    expect(quotationIn('she said “hi” to me')).toBe('she said “hi” to me');
  });
});

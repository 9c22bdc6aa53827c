import { describe, expect, it } from 'vitest';
import { analyze, fold, tokenize, WordCache } from '../../src/search/analyze.ts';

describe('analyze', () => {
  it('folds accents and case: Téteghem and Teteghem are one term', () => {
    expect(analyze('Téteghem')).toEqual(analyze('TETEGHEM'));
    expect(analyze('Fréthun François')).toEqual(['frethun', 'francoi']);
    expect(fold('Ça')).toBe('ca');
  });

  it('treats typographic and straight apostrophes alike and drops the possessive', () => {
    expect(analyze('Cameron’s attitude')).toEqual(analyze("Cameron's attitude"));
    expect(analyze('Bouchart’s')).toEqual(['bouchart']);
  });

  it('drops English stop words, question words included', () => {
    expect(analyze('Who is the mayor of the town and what did he say?')).toEqual(['mayor', 'town', 'sai']);
  });

  it('stems so that inflections meet', () => {
    expect(analyze('threatened')).toEqual(analyze('threatening'));
    expect(analyze('smugglers')).toEqual(analyze('smuggler'));
    expect(analyze('migrants')).toEqual(analyze('migrant'));
  });

  it('joins irregular past forms to their verb: said = say, paid = pay, spent = spend', () => {
    expect(analyze('Ludovic said')).toEqual(analyze('Ludovic says'));
    expect(analyze('he paid')).toEqual(analyze('he pays'));
    expect(analyze('spent')).toEqual(analyze('spending'));
  });

  it('keeps amounts and numbers searchable, without thousands separators, currency signs as words', () => {
    expect(analyze('$18,000 and €7,000 (£5,000), 5.93 mln, 150,000 migrants in 2014')).toEqual([
      'dollar',
      '18000',
      'euro',
      '7000',
      'pound',
      '5000',
      '5.93',
      'million',
      '150000',
      'migrant',
      '2014',
    ]);
    expect(analyze('18000')).toEqual(analyze('18,000'));
  });

  it('indexes hyphenated words by their parts and as one word', () => {
    expect(analyze('co-operation')).toEqual(['co', 'oper', 'cooper']);
    expect(analyze('cooperation')).toEqual(['cooper']);
  });

  it('keeps abbreviations such as U.S. as one term', () => {
    expect(analyze('U.S. officials')).toEqual(['us', 'offici']);
  });

  it('yields nothing for emoji, punctuation or search operators', () => {
    expect(analyze('🙂🙂 ... ?!')).toEqual([]);
    expect(analyze('+ - * ~ ^ : ( ) " AND OR')).toEqual([]);
  });

  it('gives offsets of the original words for highlighting', () => {
    const text = 'The mayor of Téteghem said';
    expect(tokenize(text).map((t) => text.slice(t.start, t.end))).toEqual(['mayor', 'Téteghem', 'said']);
    expect(tokenize(text).map((t) => t.position)).toEqual([1, 3, 4]);
  });
});

describe('remembered words', () => {
  const words = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, i) => `${prefix}${i.toString(36)}`).join(' ');

  it('keeps a bounded number for questions, up to a corpus’s vocabulary while indexing, and common ones after', () => {
    const sentence = 'The mayors said the strikes were threatening Teteghem';
    const before = analyze(sentence);
    const questions = WordCache.forQuestions();
    analyze(words(150_000, 'question'), questions);
    expect(questions.size).toBeLessThanOrEqual(100_000);

    const corpus = WordCache.forCorpus();
    analyze(`${sentence} ${words(150_000, 'corpus')}`, corpus);
    expect(corpus.size).toBeGreaterThan(150_000);
    const kept = corpus.commonWords((terms) => terms.every((term) => !term.startsWith('corpus')));
    expect(kept.size).toBeLessThanOrEqual(50_000);
    expect(kept.size).toBeGreaterThan(0);
    // Another engine's build, or this one's, leaves the other caches as they were.
    expect(corpus.size).toBeGreaterThan(150_000);
    expect(analyze('corpus1 corpus2', kept)).toEqual(['corpus1', 'corpus2']);
    // What is remembered or forgotten never changes what a text is analysed into.
    expect(analyze(sentence, kept)).toEqual(before);
    expect(analyze(sentence, questions)).toEqual(before);
  });
});

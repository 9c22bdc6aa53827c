import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';
import { decodePostings, encodePostings } from '../../src/search/postings/posting-codec.ts';
import { RETRIEVAL } from '../../src/search/retrieval.ts';

let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
});

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';
const TELEGRAPH = 'calais-mayor-threatens-to-open-borders';
const RENEWS = 'calais-mayor-renews-border-threat';

const citations = (question: string, limit = 3) =>
  engine.answer(question, { limit }).results.map((r) => r.citation);

describe('answers from the seed corpus', () => {
  it('GIVEN "who threatened the mayor of Teteghem?" THEN it quotes the traffickers and the gun, cited', () => {
    const [first, second] = engine.answer('who threatened the mayor of Teteghem?').results;
    expect([first?.citation, second?.citation].sort()).toEqual([`${TETEGHEM}#1`, `${TETEGHEM}#2`]);
    const gun = [first, second].find((r) => r?.citation === `${TETEGHEM}#2`)!;
    expect(gun.passage).toContain('They allegedly then showed him a gun');
    expect(gun.title).toBe(
      "French mayor says he was threatened with a gun by 'English mafia' smuggling migrants into Britain",
    );
    expect(gun.paragraph).toBe(2);
    expect(gun.publisher).toBeNull();
    expect(gun.url).toBeNull();
  });

  it('quotes verbatim: every quote is a slice of its passage and every highlight a word of the question', () => {
    for (const question of [
      'who threatened the mayor of Teteghem?',
      'How much do smugglers charge?',
      'Le Touquet',
    ]) {
      for (const result of engine.answer(question).results) {
        expect(result.passage).toContain(result.quote);
        expect(engine.passage(result.citation)?.passage.text).toBe(result.passage);
        for (const { start, end } of result.highlights) {
          expect(result.quote.slice(start, end)).toMatch(/^[\p{L}\p{N}]/u);
        }
      }
    }
  });

  it('answers "how much" with the passage that holds the amount', () => {
    const [best] = engine.answer('How much did the migrant pay to travel from Syria?').results;
    expect(best?.citation).toBe(`${TETEGHEM}#5`);
    expect(best?.quote).toContain('$18,000');
    // A sum of money, not just any number: not "150,000 migrants have crossed the Mediterranean".
    // (For "how much did the migrant pay to cross?" the Telegraph's passage on what smugglers charge
    // migrants at the Jungle ranks above the BBC's $18,000: both answer a reader, only one the question.)
    const paid = engine.answer('how much did the migrant pay to cross?').results;
    expect(paid.map((r) => r.passage).join(' ')).not.toContain('150,000 migrants');
    const [jungle] = engine.answer('How much do smugglers charge migrants at the Jungle?').results;
    expect(jungle?.quote).toContain('€7,000 (£5,000)');
    expect(jungle?.publisher).toBe('The Telegraph');
  });

  it('meets a question in the present with reporting in the past: "What did Ludovic say?"', () => {
    const [first] = engine.answer('What did Ludovic say?').results;
    expect(first?.citation).toBe(`${TELEGRAPH}#22`);
    expect(first?.passage).toMatch(/^Ludovic, whose house in western Calais/);
  });

  it('finds a misspelt name: Dhersen and Derhsin find Dhersin', () => {
    expect(engine.answer('Dhersen').results[0]?.passage).toMatch(/Dhersin/);
    const spelled = engine.answer('what did Derhsin say about British police?').results;
    expect(spelled.map((r) => r.passage).join(' ')).toMatch(/British police/);
  });

  it('never bends a real word the corpus lacks into another: "wounded" is not "pounds"', () => {
    // The seed articles never mention the wounded; one edit away, the £ of "£5,000" is "pound".
    const wounded = engine.answer('how many were wounded?');
    expect(wounded.results).toEqual([]);
    expect(wounded.assurance).toBe('none');
  });

  it('matches Téteghem and Teteghem alike', () => {
    expect(citations('mayor of Téteghem', 5).sort()).toEqual(citations('mayor of Teteghem', 5).sort());
  });

  it('groups the same statement reported by two outlets into one result', () => {
    const results = engine.answer('What is the Le Touquet Treaty?').results;
    expect(results[0]?.citation).toBe(`${TELEGRAPH}#1`);
    expect(results[0]?.alsoReportedBy).toEqual([`${RENEWS}#6`]);
    expect(results.map((r) => r.citation)).not.toContain(`${RENEWS}#6`);
  });

  // "How many people live in Dunkirk?" left this list when the confidence learnt what a question is
  // about: its nouns (people, Dunkirk) are all in the first passage's neighbourhood, and the missing
  // number weighs little in the fit; it is now answered with "Teteghem, near Dunkirk" (with the
  // passage on violent people before the everyday-English prior; README, issue 10, known misses).
  it.each([
    'What is the capital of Australia?',
    'Who won the World Cup in 2018?',
    'What is the weather in Calais today?',
    'When was the Eiffel Tower built?',
    'how do I bake bread',
  ])('GIVEN "%s", which the corpus does not cover, THEN it is never presented as an answer', (question) => {
    const answer = engine.answer(question);
    expect(answer.assurance).not.toBe('answer');
    expect(answer.results.length > 0).toBe(answer.assurance === 'closest');
  });

  it('GIVEN a question the seed articles answer THEN the reply is an answer', () => {
    const answer = engine.answer('who threatened the mayor of Teteghem?');
    expect(answer.assurance).toBe('answer');
    expect(answer.results[0]?.article).toBe(TETEGHEM);
  });

  it('GIVEN a question about Calais the articles do not answer THEN their Calais passage is only the closest coverage', () => {
    // "weather" is in no seed article; "Calais" is in two headlines.
    const answer = engine.answer('What is the weather in Calais today?');
    expect(answer.assurance).toBe('closest');
    expect(answer.results.map((r) => r.article)).toContain(RENEWS);
  });

  it('GIVEN words nothing in the corpus holds THEN the reply is "no coverage", with no results and no stories', () => {
    const answer = engine.answer('What is the capital of Australia?');
    expect(answer).toMatchObject({ assurance: 'none', results: [], hasMore: false });
    expect(answer.stories).toBeUndefined();
  });

  it('is as sure of a question on every page, and never offers stories within one article', () => {
    const question = 'What is the population of Teteghem?';
    const first = engine.answer(question, { limit: 1 });
    const second = engine.answer(question, { limit: 1, offset: 1 });
    expect(second.assurance).toBe(first.assurance);
    expect(second.stories).toEqual(first.stories);
    for (const article of [TETEGHEM, TELEGRAPH, RENEWS]) {
      expect(engine.answer(question, { articleId: article }).stories).toBeUndefined();
    }
  });

  // Issue 10: questions the seed articles plainly answer, which hard rules used to turn away.
  it('answers in "pounds" what the article writes with "£"', () => {
    const [best] = engine.answer('How many pounds did a villager pay for a wall against migrants?').results;
    expect(best?.article).toBe(TELEGRAPH);
    expect(best?.quote).toContain('£1,800');
  });

  it('answers "when" with a span of months that has no day or year', () => {
    const [best] = engine.answer('When did more migrants die than in the last six months of 2014?').results;
    expect(best?.article).toBe(RENEWS);
    expect(best?.quote).toContain('between June and July');
  });

  it('answers "how long" with a vague duration: "for years"', () => {
    const [best] = engine.answer('How long has the English mafia been in the region?').results;
    expect(best?.article).toBe(TETEGHEM);
    expect(best?.quote).toContain('for years');
  });

  // Over 52 passages an everyday word the articles happen not to use ("become", "recently") counted as
  // rare as a word can be, and the question was turned away (issue 10); everyday English is now a prior
  // on every term's rarity (everyday-words.ts).
  it('answers a question whose everyday words the seed articles never use', () => {
    const results = engine.answer('Have the English gangs become better organised recently?').results;
    expect(results.length).toBeGreaterThan(0);
    const [first] = engine.answer('How long has the Calais situation been getting worse?').results;
    expect(first?.quote).toContain('escalating over the last few weeks');
  });

  it('reads "whereabouts" as "where": a place is asked for, and the word is not searched', () => {
    const passages = engine.answer('whereabouts is teteghem').results.map((r) => r.passage);
    expect(passages.some((passage) => passage.includes('Teteghem, near Dunkirk'))).toBe(true);
  });

  it('answers in "dollars" what the article writes with "$"', () => {
    const results = engine.answer(
      'How many dollars did the Syrian migrant spend to cross the Channel?',
    ).results;
    expect(results[0]?.quote).toContain('$4,700');
  });

  it('never quotes page furniture', () => {
    for (const question of [
      'Photo EPA migrants Channel Tunnel fence',
      'Read More Jewish community leaders',
      'In pictures',
    ]) {
      for (const result of engine.answer(question, { limit: 10 }).results) {
        expect(result.passage).not.toMatch(/Photo: EPA|Jewish community leaders|In pictures/);
      }
    }
  });

  it.each([
    ['empty', ''],
    ['blank', '   \n\t '],
    ['10,000 characters', 'mayor '.repeat(1700)],
    ['emoji', '🙂🔥🇫🇷'],
    ['punctuation', '?!...;:,'],
    ['MiniSearch operators', 'AND OR NOT mayor* ~gun^2 "(smugglers"'],
    ['control characters', '\u0000\u0007mayor\u202e'],
  ])('GIVEN a question that is %s THEN it answers without throwing', (_kind, question) => {
    const answer = engine.answer(question);
    expect(answer.query).toBe(question);
    expect(Array.isArray(answer.results)).toBe(true);
  });

  it('pages through results without repeating one', () => {
    const first = engine.answer('migrants', { limit: 3 });
    const second = engine.answer('migrants', { limit: 3, offset: 3 });
    expect(first.hasMore).toBe(true);
    expect(second.results).toHaveLength(3);
    const all = [...first.results, ...second.results].map((r) => r.citation);
    expect(new Set(all).size).toBe(6);
  });

  it('answers from one article only when asked to', () => {
    const results = engine.answer('mayor', { limit: 10, articleId: RENEWS }).results;
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.article === RENEWS)).toBe(true);
  });

  it('shows a passage with its neighbours, and finds citations and articles for autocomplete', async () => {
    const context = engine.context(`${TETEGHEM}#2`, 1)!;
    expect(context.passages.map((p) => p.paragraph)).toEqual([1, 2, 3]);
    expect(context.focus).toBe(1);
    expect(engine.suggestArticles('telegraph').map((a) => a.id)).toEqual([TELEGRAPH]);
    expect(engine.suggestArticles('calais mayor').map((a) => a.id)).toEqual([TELEGRAPH]);
    expect((await engine.suggestCitations(`${TETEGHEM}#1`)).map((c) => c.citation)).toEqual([
      `${TETEGHEM}#1`,
      `${TETEGHEM}#10`,
      `${TETEGHEM}#11`,
    ]);
    expect(engine.closestHeadlines('Dunkirk population')[0]?.id).toBeDefined();
  });

  it('answers "no coverage" to a question naming no topic, only words most passages share', () => {
    // In 52 passages "migrants" is common (25 of them); at 121,000 it is "what did he say?" that is.
    const strict = Engine.build(engine.corpus, { retrieval: { ...RETRIEVAL, vagueQuestionPostings: 20 } });
    expect(engine.answer('What about the migrants?').results.length).toBeGreaterThan(0);
    expect(strict.answer('What about the migrants?').results).toEqual([]);
    expect(strict.closestHeadlines('What about the migrants?')).toEqual([]);
    expect(strict.answer('who threatened the mayor of Teteghem?').results[0]?.article).toBe(TETEGHEM);
  });

  it('survives serialization: a restored engine answers the same', () => {
    const bytes = Buffer.concat(encodePostings(engine.postings));
    const counts = engine.corpus.articles.map((article) => article.passages.length);
    const restored = Engine.fromPostings(engine.corpus, decodePostings(bytes, counts));
    expect(restored.answer('who threatened the mayor?')).toEqual(engine.answer('who threatened the mayor?'));
  });
});

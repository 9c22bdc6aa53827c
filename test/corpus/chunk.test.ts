import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chunkArticle,
  HARD_MAX_PASSAGE_CHARS,
  MAX_PASSAGE_CHARS,
  splitBlocks,
} from '../../src/corpus/chunk.ts';

// The seed articles as they were scraped (../shared/seed-articles), furniture and all.
const seed = (name: string) =>
  readFileSync(new URL(`../fixtures/seed-articles/${name}`, import.meta.url), 'utf8');
const bodyOf = (text: string) => text.split('\n').slice(1).join('\n');

describe('splitBlocks', () => {
  it('GIVEN paragraphs separated by blank lines THEN each is one block', () => {
    const blocks = splitBlocks('First paragraph here.\n\nSecond one, longer.\n\n\nThird.');
    expect(blocks.map((b) => b.text)).toEqual(['First paragraph here.', 'Second one, longer.', 'Third.']);
    expect(blocks.map((b) => b.line)).toEqual([1, 3, 6]);
  });

  it('GIVEN one paragraph per line THEN each line is a block', () => {
    const text = bodyOf(seed('002_b522ab1338596cea.txt'));
    const blocks = splitBlocks(text);
    expect(blocks[0]!.text).toMatch(/^Natacha Bouchart attacked David Cameron’s/);
    expect(blocks.some((b) => b.text === 'Read More:')).toBe(true);
  });

  it('GIVEN hard-wrapped newswire whose paragraphs start indented THEN wrapped lines are joined', () => {
    const reuters =
      'Showers continued throughout the week in\nthe Bahia cocoa zone, alleviating the drought since early\n' +
      'January and improving prospects for the coming temporao,\nalthough normal humidity levels have not been restored,\n' +
      'Comissaria Smith said in its weekly review.\n    The dry period means the temporao will be late this year.\n' +
      '    Arrivals for the week ended February 22 were 155,221 bags\nof 60 kilos making a cumulative total for the season of 5.93\n' +
      'mln against 5.81 at the same stage last year.\n REUTER';
    const passages = chunkArticle('r1', reuters);
    expect(passages.map((p) => p.text)).toEqual([
      'Showers continued throughout the week in the Bahia cocoa zone, alleviating the drought since early January and improving prospects for the coming temporao, although normal humidity levels have not been restored, Comissaria Smith said in its weekly review.',
      'The dry period means the temporao will be late this year.',
      'Arrivals for the week ended February 22 were 155,221 bags of 60 kilos making a cumulative total for the season of 5.93 mln against 5.81 at the same stage last year.',
    ]);
  });
});

describe('chunkArticle', () => {
  it('keeps photo captions, bullet links and the Read More list out of the passages', () => {
    const telegraph = chunkArticle('t', bodyOf(seed('001_b9b4d95d0f9e79a0.txt')));
    const texts = telegraph.map((p) => p.text);
    expect(texts.some((t) => t.includes('Photo: EPA'))).toBe(false);
    expect(texts.some((t) => t.startsWith('•'))).toBe(false);
    const independent = chunkArticle('i', seed('002_b522ab1338596cea.txt'));
    const independentTexts = independent.map((p) => p.text);
    expect(independentTexts).not.toContain('Read More:');
    expect(independentTexts.some((t) => t.includes('Jewish community leaders'))).toBe(false);
    expect(independentTexts).not.toContain(
      "Natacha Bouchart has criticised David Cameron's attitude to the crisis",
    );
  });

  it('cuts a trailing "In pictures" teaser off the paragraph it is glued to', () => {
    const passages = chunkArticle('i', seed('002_b522ab1338596cea.txt'));
    const refugee = passages.find((p) => p.text.startsWith('A Syrian refugee'));
    expect(refugee?.text).toBe(
      'A Syrian refugee, who wished to remain anonymous said: “The smugglers just want to make money from migrants. The smugglers are very violent.”',
    );
  });

  it('numbers paragraphs as a reader counts them, skipping furniture', () => {
    const passages = chunkArticle('t', bodyOf(seed('001_b9b4d95d0f9e79a0.txt')));
    expect(passages[0]).toMatchObject({ id: 't#1', paragraph: 1, index: 0 });
    // The bullet link between the first two paragraphs is not counted.
    expect(passages[1]).toMatchObject({ id: 't#2', paragraph: 2 });
    expect(passages[1]!.text).toMatch(/^A network of smugglers/);
    expect(passages.at(-1)!.paragraph).toBe(passages.length);
  });

  it('splits an over-long paragraph at sentence boundaries, never inside a quotation', () => {
    const quote =
      '"This is a long quoted statement. It goes on. And on, with several sentences inside the quote."';
    const sentences = Array.from(
      { length: 30 },
      (_, i) => `Sentence number ${i} says something about the town.`,
    );
    const paragraph = [...sentences.slice(0, 10), quote, ...sentences.slice(10)].join(' ');
    const passages = chunkArticle('long', paragraph);
    expect(paragraph.length).toBeGreaterThan(MAX_PASSAGE_CHARS);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.map((p) => p.id)).toEqual(
      passages.map((_, i) => (i === 0 ? 'long#1' : `long#1.${i + 1}`)),
    );
    expect(passages.every((p) => p.paragraph === 1)).toBe(true);
    expect(passages.some((p) => p.text.includes(quote))).toBe(true);
    expect(passages.map((p) => p.text).join(' ')).toBe(paragraph);
  });
});

describe('passages whatever the punctuation (issue 14)', () => {
  const words = ['harbour', 'council', 'lighthouse', 'border', 'village', 'ferry', 'tide', 'quay'];
  const filler = (chars: number): string => {
    let text = '';
    for (let i = 0; text.length < chars; i++) text += `${words[i % words.length]} `;
    return text.trim();
  };

  it.each([
    ['no sentence break at all', (middle: string) => `${filler(800_000)} ${middle} ${filler(800_000)}`],
    [
      'one unclosed quotation',
      (middle: string) => `He said “${filler(800_000)} ${middle} ${filler(800_000)}`,
    ],
  ])(
    'GIVEN a 1.6 MB paragraph with %s THEN every passage is bounded, split at words, nothing lost',
    (_what, make) => {
      const middle = 'the ferry captain Odile Marchetti refused to sail';
      const text = make(middle);
      const passages = chunkArticle('long', text);
      expect(Math.max(...passages.map((p) => p.text.length))).toBeLessThanOrEqual(HARD_MAX_PASSAGE_CHARS);
      expect(passages.map((p) => p.text).join(' ')).toBe(text);
      // Cut at spaces: every passage starts and ends with a whole word.
      for (const passage of passages) expect(passage.text).toMatch(/^\S.*\S$/s);
      expect(new Set(passages.map((p) => p.paragraph))).toEqual(new Set([1]));
      expect(passages.map((p) => p.id).slice(0, 3)).toEqual(['long#1', 'long#1.2', 'long#1.3']);
    },
  );

  it('GIVEN a 100 kB word without a space THEN it is still cut into bounded passages', () => {
    const word = 'x'.repeat(100_000);
    const passages = chunkArticle('word', word);
    expect(Math.max(...passages.map((p) => p.text.length))).toBeLessThanOrEqual(HARD_MAX_PASSAGE_CHARS);
    expect(passages.map((p) => p.text).join('')).toBe(word);
  });
});

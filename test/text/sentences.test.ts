import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/text/sentences.ts';

const texts = (text: string) => splitSentences(text).map((s) => s.text);

describe('splitSentences', () => {
  it('splits at full stops followed by a capital', () => {
    expect(texts('The mayor spoke. Police listened! Did it help? Nobody knows.')).toEqual([
      'The mayor spoke.',
      'Police listened!',
      'Did it help?',
      'Nobody knows.',
    ]);
  });

  it('does not split after titles, initials or U.S.', () => {
    expect(texts('Mr. Dhersin met Dr. Smith and J. Doe in the U.S. on Friday. Then he left.')).toEqual([
      'Mr. Dhersin met Dr. Smith and J. Doe in the U.S. on Friday.',
      'Then he left.',
    ]);
  });

  it('keeps a quotation whole and ends the sentence after its closing mark', () => {
    expect(texts('He said: “The smugglers are violent. They want money.” Police agreed.')).toEqual([
      'He said: “The smugglers are violent. They want money.”',
      'Police agreed.',
    ]);
  });

  it('still splits a paragraph whose quotation runs on into the next paragraph', () => {
    expect(texts('"I would urge the police to come. We need help.')).toEqual([
      '"I would urge the police to come.',
      'We need help.',
    ]);
  });

  it('gives offsets that slice the original text', () => {
    const text = '  First one.   Second one.';
    for (const s of splitSentences(text)) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordIndexOf } from '../../src/text/word-index.ts';

/** What wink-nlp's own loader makes of a list: an object without a prototype, each word at its last place. */
function objectIndexOf(list: readonly string[]): Record<string, number> {
  const index: Record<string, number> = Object.create(null);
  for (let k = 0; k < list.length; k++) index[list[k]!] = k;
  return index;
}

// Short words from a small alphabet, so that lists repeat words and reads hit and miss.
const word = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'é', '’', '1', '_'), maxLength: 4 }),
  fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty'),
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), word, value: fc.nat() }),
  fc.record({ kind: fc.constant('read' as const), word }),
);

describe('wordIndexOf: a list of words indexed by position', () => {
  it('reads and is extended as the object of the same positions is', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), fc.array(step, { maxLength: 20 }), (list, steps) => {
        const ours = wordIndexOf(list);
        const theirs = objectIndexOf(list);
        for (const s of steps) {
          if (s.kind === 'set') {
            ours[s.word] = s.value;
            theirs[s.word] = s.value;
          }
          // `in` before the first read too: a word read is then the object's own property.
          expect(s.word in ours).toBe(s.word in theirs);
          expect(ours[s.word]).toBe(theirs[s.word]);
        }
        for (const w of list) expect(ours[w]).toBe(theirs[w]);
        // It lists what has been read or added: each with the object's value.
        for (const key of Object.keys(ours)) expect(ours[key]).toBe(theirs[key]);
      }),
    );
  });

  it('keeps a list of 100,000 distinct words apart', () => {
    const list = Array.from({ length: 100_000 }, (_, k) => `w${k.toString(36)}`);
    const index = wordIndexOf(list);
    for (let k = 0; k < list.length; k += 997) expect(index[list[k]!]).toBe(k);
    expect(index.w).toBeUndefined();
    expect('w' in index).toBe(false);
    expect('w1' in index).toBe(true);
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordIndexOf } from '../../src/text/word-index.ts';

/** What wink-nlp's own loader makes of a list: an object without a prototype, each word at its last place. */
function objectIndexOf(list: readonly string[]): Record<string, number> {
  const index: Record<string, number> = Object.create(null);
  for (let k = 0; k < list.length; k++) index[list[k]!] = k;
  return index;
}

// Short words from a small alphabet, so that lists repeat words and questions hit and miss.
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '’', '1', '_'), maxLength: 4 });
const operation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), word, value: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), word }),
);

describe('wordIndexOf: a list of words indexed by position', () => {
  it('reads, extends and compares as the object of the same positions does', () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 60 }),
        fc.array(operation, { maxLength: 10 }),
        fc.array(word, { maxLength: 10 }),
        (list, operations, asked) => {
          const ours = wordIndexOf(list);
          const theirs = objectIndexOf(list);
          for (const op of operations) {
            if (op.kind === 'set') {
              ours[op.word] = op.value;
              theirs[op.word] = op.value;
            } else {
              delete ours[op.word];
              delete theirs[op.word];
            }
          }
          for (const w of [...list, ...asked]) {
            expect(ours[w]).toBe(theirs[w]);
            expect(w in ours).toBe(w in theirs);
          }
          expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
          assert.deepStrictEqual(ours, theirs);
        },
      ),
    );
  });

  it('keeps a list of 100,000 distinct words apart', () => {
    const list = Array.from({ length: 100_000 }, (_, k) => `w${k.toString(36)}`);
    const index = wordIndexOf(list);
    for (let k = 0; k < list.length; k += 997) expect(index[list[k]!]).toBe(k);
    expect(index.w).toBeUndefined();
    expect('constructor' in index).toBe(false);
  });
});

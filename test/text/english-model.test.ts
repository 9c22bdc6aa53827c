import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ItemEntity, ItemSentence, WinkMethods } from 'wink-nlp';
import winkNLP from 'wink-nlp';
import { englishModel, type WinkModel } from '../../src/text/english-model.ts';
import { type SHARED_DATA, sharedData } from '../support/shared-data.ts';

const require = createRequire(import.meta.url);
const packaged = () => require('wink-eng-lite-web-model') as WinkModel & { core(): object };

/** The first `count` non-empty texts (or questions) of a shared `.jsonl` file. */
function textsOf(file: keyof typeof SHARED_DATA, field: string, count: number): string[] {
  const text = readFileSync(sharedData(file), 'utf8');
  const lines = text.slice(0, text.indexOf('\n', 3_000_000)).split('\n');
  return lines
    .map((line) => (JSON.parse(line) as Record<string, string | undefined>)[field] ?? '')
    .filter((value) => value !== '')
    .slice(0, count);
}

/** All that wink-nlp says of a text with the pipe `entities.ts` uses: tokens, tags, lemmas, entities, sentences. */
function analysis(nlp: WinkMethods, text: string): unknown {
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const entities: unknown[] = [];
  doc.entities().each((entity: ItemEntity) => entities.push([entity.out(its.span), entity.out(its.type)]));
  const sentences: unknown[] = [];
  doc.sentences().each((sentence: ItemSentence) => sentences.push(sentence.out(its.span)));
  return {
    values: doc.tokens().out(its.value),
    spaces: doc.tokens().out(its.precedingSpaces),
    pos: doc.tokens().out(its.pos),
    types: doc.tokens().out(its.type),
    // wink-nlp's types declare `its.lemma` with the arguments it is called with, not as `out` takes it.
    lemmas: doc.tokens().out(its.lemma as unknown as typeof its.value),
    entities,
    sentences,
  };
}

describe('englishModel: wink-eng-lite-web-model loaded for less', () => {
  it('builds the core model the package builds, value for value', () => {
    type Lexeme = { list: string[]; hash: Record<string, number> };
    const ours = englishModel().core() as { features: { lexeme: Lexeme } };
    const theirs = packaged().core() as { features: { lexeme: Lexeme } };
    // The word index is compared word by word below: it lists only the words read so far.
    const ourIndex = ours.features.lexeme.hash;
    const theirIndex = theirs.features.lexeme.hash;
    ours.features.lexeme.hash = {};
    theirs.features.lexeme.hash = {};
    // node's own deep comparison: vitest's takes seconds over the 87,593 words of the lexicon.
    assert.deepStrictEqual(ours, theirs);
    const words = [...theirs.features.lexeme.list, 'qzxv-not-a-word', 'constructor', '__proto__', 'toString'];
    for (const word of words) {
      assert.equal(ourIndex[word], theirIndex[word], word);
      assert.equal(word in ourIndex, word in theirIndex, word);
    }
  });

  it('reads real articles and questions exactly as the package does', { tags: ['shared-data'] }, () => {
    const pipe = ['sbd', 'pos', 'ner'] as const;
    const ours = winkNLP(englishModel(), [...pipe]);
    const theirs = winkNLP(packaged(), [...pipe]);
    const texts = [
      ...textsOf('reuters', 'text', 150),
      ...textsOf('bbc', 'text', 100),
      ...textsOf('newsqaQuestions', 'question', 400),
    ];
    expect(texts).toHaveLength(650);
    for (const text of texts) expect(analysis(ours, text)).toStrictEqual(analysis(theirs, text));
  });
});

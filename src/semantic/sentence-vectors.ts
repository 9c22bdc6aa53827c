import { cosine } from './cosine.ts';
import type { WordVectors } from './word-vectors.ts';
import { lookupForms, vectorWords } from './words.ts';

/**
 * Sentence meaning from word vectors: a text's vector is the mean of its words' vectors, each weighted
 * by its rarity in the corpus (idf), so that "the" and "said" do not outweigh "mayor" and "threatened".
 * Microseconds a passage: cheap enough for every candidate of every question.
 */
export class SentenceVectors {
  readonly #words: WordVectors;

  constructor(words: WordVectors) {
    this.#words = words;
  }

  /** A word's rarity among the corpus's passages; a word the corpus lacks counts as rarest. */
  idf(word: string): number {
    const { passages } = this.#words;
    return Math.log((passages + 1) / (this.#words.df(word) + 1));
  }

  /** The idf-weighted mean of the text's word vectors (all zeros when none has a vector). */
  vectorOf(text: string): Float32Array {
    const sum = new Float32Array(this.#words.dimensions);
    for (const word of vectorWords(text)) {
      for (const form of lookupForms(word, (w) => this.#words.has(w))) {
        const vector = this.#words.vector(form);
        if (vector === undefined) continue;
        const weight = this.idf(form);
        for (let i = 0; i < sum.length; i++) sum[i]! += weight * vector[i]!;
      }
    }
    return sum;
  }

  /**
   * How well the passage's words meet the question's, one by one: for each distinct question word, its
   * nearest passage word by cosine (1 for the word itself, so a name GloVe lacks still counts when the
   * passage has it), averaged with idf weights. "threaten" meets "threat", "resign" meets "quit".
   */
  alignment(question: string, passage: string): number {
    const passageWords = [...new Set(vectorWords(passage))];
    const present = new Set(passageWords);
    const passageVectors = passageWords.flatMap((word) => this.#words.vector(word) ?? []);
    let total = 0;
    let met = 0;
    for (const word of new Set(vectorWords(question))) {
      const weight = this.idf(word);
      total += weight;
      if (present.has(word)) {
        met += weight;
        continue;
      }
      const vector = this.#words.vector(word);
      if (vector === undefined) continue;
      let best = 0;
      for (const other of passageVectors) best = Math.max(best, cosine(vector, other));
      met += weight * best;
    }
    return total > 0 ? met / total : 0;
  }
}

import type { Passage } from '../corpus/article.ts';
import { type Token, tokenize, type WordCache } from './analyze.ts';

/**
 * The tokens of the passages ranked lately, remembered by the engine that ranks them. Ranking needs a
 * candidate's tokens for its layout features (proximity, phrase, counts) and, for a question with
 * common terms, to find those terms in it; they depend on the passage alone, yet each question
 * tokenized every candidate afresh (since the fitted model of f417157). Where questions come back to
 * the same passages it saves most of that: the 3 bundled articles, 0.77 -> 0.57 ms of CPU a question;
 * at 121k passages NewsQA's varied questions find 14% of theirs here, and gain nothing measurable.
 * When full, the quarter remembered first is let go (as `WordCache`). The arrays are shared: frozen.
 */
export class PassageTokens {
  readonly #tokens = new Map<string, readonly Token[]>();
  readonly #words: WordCache;
  readonly #limit: number;
  #hits = 0;
  #misses = 0;

  constructor(words: WordCache, limit = PASSAGES_REMEMBERED) {
    this.#words = words;
    this.#limit = limit;
  }

  /** The passage's tokens (`tokenize` with the engine's words), remembered by its id. */
  of(passage: Passage): readonly Token[] {
    const known = this.#tokens.get(passage.id);
    if (known !== undefined) {
      this.#hits += 1;
      return known;
    }
    this.#misses += 1;
    const tokens = Object.freeze(tokenize(passage.text, this.#words));
    if (this.#tokens.size >= this.#limit) this.#letGoOf(this.#limit / 4);
    this.#tokens.set(passage.id, tokens);
    return tokens;
  }

  /** Passages remembered, and how often a passage asked for was remembered. */
  get stats(): { passages: number; hits: number; misses: number } {
    return { passages: this.#tokens.size, hits: this.#hits, misses: this.#misses };
  }

  #letGoOf(count: number): void {
    for (const id of this.#tokens.keys()) {
      if (count-- <= 0) break;
      this.#tokens.delete(id);
    }
  }
}

/**
 * A passage's tokens take about 4 KB (some 60 words of objects of four fields): 2,048 of them about
 * 8 MB per engine, beside its index of hundreds of MB at 121k passages.
 */
const PASSAGES_REMEMBERED = 2_048;

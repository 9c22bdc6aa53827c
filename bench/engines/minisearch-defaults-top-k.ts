import MiniSearch from 'minisearch';
import type { Corpus } from '../../src/corpus/article.ts';
import type { BenchIndex, PeerDocument } from './engine-adapter.ts';
import { peerDocuments, toRetrieved } from './engine-adapter.ts';

/**
 * MiniSearch 7.2's default ranking (OR of terms, BM25+ over `title` and `text`, no prefix or fuzzy
 * matching), computed into the first `limit` results only, for the quality eval.
 *
 * `MiniSearch.search` builds and sorts a result object for every passage holding any question word:
 * with no stop words, "the" alone matches nearly all 121,000 passages of the 24k corpus, so one question
 * costs ~0.7 s of CPU and the 2,130 NewsQA distractor questions took over an hour on the shared machine.
 * This index holds the same postings in flat arrays and reproduces MiniSearch's arithmetic step by step
 * (same tokenizer and term processing, same field lengths and running averages, the same BM25+ formula,
 * per-term sums added in query order, score × number of matched terms, ties kept in MiniSearch's order),
 * so its first results are MiniSearch's, bit for bit; `test/bench/engines/minisearch-defaults-top-k.test.ts`
 * checks that against MiniSearch itself on real passages. `npm run bench` still times MiniSearch itself.
 */

// MiniSearch's defaults, read from the library where it exposes them.
const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const processTerm = MiniSearch.getDefault('processTerm') as (
  term: string,
) => string | string[] | null | undefined;
// `defaultBM25params` of MiniSearch 7.2 (not exported); the equivalence test fails if they drift.
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const FIELDS = ['title', 'text'] as const;

interface Postings {
  documents: number[];
  frequencies: number[];
  /** Each posting's BM25+ score, computed the first time a question asks for the term. */
  scores?: Float64Array;
}

function processed(term: string): string[] {
  const result = processTerm(term);
  if (Array.isArray(result)) return result;
  return result ? [result] : [];
}

// MiniSearch's `calcBM25Score`, operand for operand, so the floating-point result is identical.
function bm25(
  frequency: number,
  matching: number,
  total: number,
  length: number,
  averageLength: number,
): number {
  const { k, b, d } = BM25;
  const invDocFreq = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
  return invDocFreq * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / averageLength)));
}

class TopKIndex {
  private readonly postings = FIELDS.map(() => new Map<string, Postings>());
  private readonly fieldLengths = FIELDS.map(() => [] as number[]);
  private readonly averageLengths = FIELDS.map(() => 0);
  // Per-question scratch, stamped instead of cleared.
  private readonly termStamp: Int32Array;
  private readonly termScore: Float64Array;
  private readonly seenStamp: Int32Array;
  private readonly score: Float64Array;
  private readonly matchedTerms: Int32Array;
  private stamp = 0;

  constructor(private readonly documents: readonly PeerDocument[]) {
    documents.forEach((document, index) => {
      FIELDS.forEach((field, fieldId) => {
        const value = field === 'title' ? document.title : document.passage.text;
        const tokens = tokenize(value);
        // As MiniSearch's `add`: the field length counts distinct raw tokens, averaged incrementally.
        const length = new Set(tokens).size;
        this.fieldLengths[fieldId]![index] = length;
        this.averageLengths[fieldId] = (this.averageLengths[fieldId]! * index + length) / (index + 1);
        const counts = new Map<string, number>();
        for (const token of tokens) {
          for (const term of processed(token)) counts.set(term, (counts.get(term) ?? 0) + 1);
        }
        const fieldPostings = this.postings[fieldId]!;
        for (const [term, count] of counts) {
          let list = fieldPostings.get(term);
          if (list === undefined) {
            list = { documents: [], frequencies: [] };
            fieldPostings.set(term, list);
          }
          list.documents.push(index);
          list.frequencies.push(count);
        }
      });
    });
    const n = documents.length;
    this.termStamp = new Int32Array(n);
    this.termScore = new Float64Array(n);
    this.seenStamp = new Int32Array(n);
    this.score = new Float64Array(n);
    this.matchedTerms = new Int32Array(n);
  }

  private scorePostings(list: Postings, fieldId: number): Float64Array {
    const matching = list.documents.length;
    const lengths = this.fieldLengths[fieldId]!;
    const averageLength = this.averageLengths[fieldId]!;
    const total = this.documents.length;
    return Float64Array.from(list.documents, (document, i) =>
      bm25(list.frequencies[i]!, matching, total, lengths[document]!, averageLength),
    );
  }

  /** Indexes of the first `limit` documents in MiniSearch's order, best first. */
  search(question: string, limit: number): number[] {
    if (limit <= 0) return [];
    const terms = tokenize(question)
      .flatMap(processed)
      .filter((term) => !!term);
    const questionStamp = ++this.stamp;
    // Documents in the order MiniSearch's OR-combined map first holds them; its stable sort keeps
    // that order among equal scores.
    const order: number[] = [];
    terms.forEach((term, position) => {
      const termStamp = ++this.stamp;
      const termDocuments: number[] = [];
      FIELDS.forEach((_, fieldId) => {
        const list = this.postings[fieldId]!.get(term);
        if (list === undefined) return;
        if (list.scores === undefined) list.scores = this.scorePostings(list, fieldId);
        const scores = list.scores;
        for (let i = 0; i < list.documents.length; i++) {
          const document = list.documents[i]!;
          const weighted = scores[i]!;
          if (this.termStamp[document] === termStamp) {
            this.termScore[document]! += weighted;
          } else {
            this.termStamp[document] = termStamp;
            this.termScore[document] = weighted;
            termDocuments.push(document);
          }
        }
      });
      // A repeated question word adds its score again but is counted once among the matched terms.
      const firstOccurrence = terms.indexOf(term) === position;
      for (const document of termDocuments) {
        if (this.seenStamp[document] === questionStamp) {
          this.score[document] = this.score[document]! + this.termScore[document]!;
          if (firstOccurrence) this.matchedTerms[document]! += 1;
        } else {
          this.seenStamp[document] = questionStamp;
          this.score[document] = this.termScore[document]!;
          this.matchedTerms[document] = 1;
          order.push(document);
        }
      }
    });
    const best: { document: number; score: number }[] = [];
    for (const document of order) {
      const score = this.score[document]! * (this.matchedTerms[document]! || 1);
      if (best.length === limit && score <= best[limit - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { document, score });
      if (best.length > limit) best.pop();
    }
    return best.map(({ document }) => document);
  }
}

/** The index, answering as `BenchIndex` does; `ids` gives the passage ids, as MiniSearch's results do. */
export function buildMiniSearchDefaultsTopK(corpus: Corpus): BenchIndex & {
  ids(question: string, limit: number): string[];
} {
  const documents = peerDocuments(corpus);
  const index = new TopKIndex(documents);
  return {
    search: (question, limit) => index.search(question, limit).map((i) => toRetrieved(documents[i]!)),
    ids: (question, limit) => index.search(question, limit).map((i) => documents[i]!.passage.id),
  };
}

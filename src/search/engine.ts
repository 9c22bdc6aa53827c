import MiniSearch, {
  type AsPlainObject,
  type Options,
  type SearchOptions,
  type SearchResult,
} from 'minisearch';
import type { Article, Corpus } from '../corpus/article.ts';
import { TimeSlicer } from '../event-loop.ts';
import { analyze, type Token, tokenize } from './analyze.ts';
import type { Answer, AnswerOptions, AnswerResult } from './answer.ts';
import { AnswerCache } from './answer-cache.ts';
import { type AnswerType, answerTypeOf, mentionsAnswerType } from './answer-type.ts';
import { CorpusLookup, type Located } from './corpus-lookup.ts';
import { inPeriod } from './period.ts';
import { termLayout } from './proximity.ts';
import { pickQuote } from './quote.ts';
import { RANKING, type RankingWeights } from './ranking.ts';
import { sameFact, termSet } from './same-fact.ts';
import { MAX_LIMIT, SearchEngine } from './search-engine.ts';

/** A document as MiniSearch sees it: fields hold terms already analysed, joined by spaces. */
interface IndexedDoc {
  id: string;
  text: string;
  /** Articles only: the headline. (Passages get the article's relevance from the article index.) */
  title?: string;
  /** Passages only: the words of the paragraphs before and after, which often name what this one is about. */
  context?: string;
}

/**
 * Questions are cut to this length before analysis: a pasted essay is still answered, from its start.
 * @default 1000
 */
export const MAX_QUESTION_CHARS = 1000;
/** At most this many distinct terms of a question are searched. */
export const MAX_QUESTION_TERMS = 24;
export { MAX_LIMIT } from './search-engine.ts';

/**
 * Bumped whenever analysis or index layout changes, so a persisted index built by an older version is
 * rebuilt instead of trusted.
 */
export const ANALYSIS_VERSION = 4;

const joinTerms = (text: string) => analyze(text).join(' ');
const splitTerms = (text: string) => (text === '' ? [] : text.split(' '));

// Both indexes receive terms the analyser has produced already (documents are analysed once, and the
// terms counted for weighting on the way), so MiniSearch's own tokenizer and term processing only split.
const PASSAGE_INDEX: Options<IndexedDoc> = {
  fields: ['text', 'context'],
  storeFields: [],
  tokenize: splitTerms,
  processTerm: (term) => term,
};
const ARTICLE_INDEX: Options<IndexedDoc> = { ...PASSAGE_INDEX, fields: ['text', 'title'] };

/** The index state of an engine, to persist and restore it without rebuilding. */
export interface SerializedEngine {
  analysisVersion: number;
  corpusVersion: string;
  passages: AsPlainObject;
  articles: AsPlainObject;
  /** `[term, number of passages holding it]`. */
  documentFrequency: [string, number][];
}

export interface BuildOptions {
  /**
   * Milliseconds of work between two yields to the event loop (`buildAsync` only).
   * @default 8
   */
  sliceMs?: number;
  /**
   * At most this many articles between two yields (`buildAsync` only), whatever the time.
   * @default Infinity
   */
  sliceSize?: number;
  /** Called after each slice with articles done and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Ranking weights; tests and the evaluation tune them. */
  ranking?: RankingWeights;
}

/** What an answer is limited to: one article, a period of publication. */
type Scope = Pick<AnswerOptions, 'articleId' | 'period'>;

interface Candidate {
  located: Located;
  score: number;
  /** Indexed terms of the passage that matched the question, with their weights. */
  matchedTerms: Map<string, number>;
}

/**
 * The search core: a MiniSearch index of passages and one of whole articles over one immutable corpus.
 * An engine never changes once built; a reload builds a new one and swaps it in.
 */
export class Engine extends SearchEngine {
  /**
   * Changes whenever analysis, chunking or the index layout changes: a persisted index is only reused
   * when both this and the corpus version match.
   */
  static readonly settingsFingerprint = `analysis-${ANALYSIS_VERSION}`;

  private readonly passageIndex: MiniSearch<IndexedDoc>;
  private readonly articleIndex: MiniSearch<IndexedDoc>;
  private readonly documentFrequency: Map<string, number>;
  private readonly ranking: RankingWeights;
  private readonly answers = new AnswerCache();
  /** `weight()` of each term asked about so far (bounded by the vocabulary). */
  private readonly weights = new Map<string, number>();

  private constructor(
    corpus: Corpus,
    passageIndex: MiniSearch<IndexedDoc>,
    articleIndex: MiniSearch<IndexedDoc>,
    documentFrequency: Map<string, number>,
    lookup: CorpusLookup,
    ranking: RankingWeights = RANKING,
  ) {
    super(corpus, lookup);
    this.passageIndex = passageIndex;
    this.articleIndex = articleIndex;
    this.documentFrequency = documentFrequency;
    this.ranking = ranking;
  }

  /** Builds an engine in one go, blocking until done. */
  static build(corpus: Corpus, options: BuildOptions = {}): Engine {
    const builder = new IndexBuilder();
    for (const article of corpus.articles) builder.add(article);
    return Engine.fromBuilder(corpus, builder, options);
  }

  /**
   * Builds an engine in slices of about `sliceMs` of work, yielding to the event loop between them so
   * heartbeats and other users' questions are served during a reload.
   */
  static async buildAsync(corpus: Corpus, options: BuildOptions = {}): Promise<Engine> {
    const slicer = new TimeSlicer(options.sliceMs ?? 8);
    const sliceSize = options.sliceSize ?? Number.POSITIVE_INFINITY;
    const builder = new IndexBuilder();
    const total = corpus.articles.length;
    let inSlice = 0;
    for (const [i, article] of corpus.articles.entries()) {
      builder.add(article);
      if (++inSlice < sliceSize && !slicer.due) continue;
      options.onProgress?.(i + 1, total);
      inSlice = 0;
      await slicer.yield();
    }
    if (inSlice > 0) options.onProgress?.(total, total);
    return Engine.fromBuilder(corpus, builder, options);
  }

  private static fromBuilder(corpus: Corpus, builder: IndexBuilder, options: BuildOptions): Engine {
    return new Engine(
      corpus,
      builder.passageIndex,
      builder.articleIndex,
      builder.documentFrequency,
      builder.lookup,
      options.ranking,
    );
  }

  /** Restores an engine from `toJSON()` output made for the same corpus. Throws if they do not match. */
  static fromJSON(corpus: Corpus, json: SerializedEngine, options: BuildOptions = {}): Engine {
    Engine.checkSerialized(corpus, json);
    return new Engine(
      corpus,
      MiniSearch.loadJS(json.passages, PASSAGE_INDEX),
      MiniSearch.loadJS(json.articles, ARTICLE_INDEX),
      new Map(json.documentFrequency),
      CorpusLookup.of(corpus),
      options.ranking,
    );
  }

  private static checkSerialized(corpus: Corpus, json: SerializedEngine): void {
    if (json.analysisVersion !== ANALYSIS_VERSION || json.corpusVersion !== corpus.version) {
      throw new Error('Engine: the persisted index was built for another corpus or analysis version');
    }
  }

  toJSON(): SerializedEngine {
    return {
      analysisVersion: ANALYSIS_VERSION,
      corpusVersion: this.corpus.version,
      passages: this.passageIndex.toJSON(),
      articles: this.articleIndex.toJSON(),
      documentFrequency: [...this.documentFrequency],
    };
  }

  /** How rare a term is among passages (BM25's idf); a term the corpus lacks is as rare as can be. */
  private weight(term: string): number {
    let weight = this.weights.get(term);
    if (weight === undefined) {
      const df = this.documentFrequency.get(term) ?? 0;
      weight = Math.log(1 + (this.passageCount - df + 0.5) / (df + 0.5));
      this.weights.set(term, weight);
    }
    return weight;
  }

  /** Fuzzy matching only for terms the corpus does not have: a misspelt name, never a real word. */
  private readonly fuzzy = (term: string): number | false => {
    // Below five letters one edit turns a word into another word ("read" into "road").
    if (this.documentFrequency.has(term) || term.length < 5 || /\d/.test(term)) return false;
    return term.length >= 8 ? 2 : 1;
  };

  /** MiniSearch's options; a scope (one article, a period) is its `filter`, so counts stay right. */
  private searchOptions(scope: Scope = {}): SearchOptions {
    const prefix = scope.articleId === undefined ? undefined : `${scope.articleId}#`;
    const period = scope.period;
    const filter =
      prefix === undefined && period === undefined
        ? undefined
        : (result: SearchResult) => {
            const id = String(result.id);
            if (prefix !== undefined && !id.startsWith(prefix)) return false;
            return (
              period === undefined || inPeriod(this.byCitation.get(id)?.article.published ?? null, period)
            );
          };
    return {
      combineWith: 'OR',
      fuzzy: this.fuzzy,
      weights: { fuzzy: this.ranking.fuzzyWeight, prefix: 0 },
      boost: { title: this.ranking.titleBoost, context: this.ranking.contextBoost },
      tokenize: splitTerms,
      processTerm: (term) => term,
      ...(filter === undefined ? {} : { filter }),
    };
  }

  /**
   * Answers a question with ranked, quoted, cited passages. Never throws for any question text; an
   * empty `results` means the corpus does not cover the question.
   */
  answer(question: string, options: AnswerOptions = {}): Answer {
    const limit = clamp(options.limit ?? 3, 1, MAX_LIMIT);
    const offset = clamp(options.offset ?? 0, 0, 1000);
    const scope: Scope = { articleId: options.articleId, period: options.period };
    const key = JSON.stringify([question, limit, offset, options.articleId ?? null, options.period ?? null]);
    const cached = this.answers.get(key);
    if (cached) return cached;
    const answer = this.findAnswer(question, limit, offset, scope);
    this.answers.set(key, answer);
    return answer;
  }

  private findAnswer(question: string, limit: number, offset: number, scope: Scope): Answer {
    const none: Answer = { query: question, results: [], hasMore: false };
    const raw = question.slice(0, MAX_QUESTION_CHARS);
    const terms = questionTerms(raw);
    if (terms.length === 0) return none;

    const type = answerTypeOf(raw);
    const shown = offset + limit;
    const candidates = this.rank(raw, terms, type, scope, shown * 4);
    if (candidates.length === 0) return none;

    const groups: { lead: AnswerResult; facts: Set<string>; others: string[] }[] = [];
    for (const [i, candidate] of candidates.entries()) {
      // Past the page, candidates matter only as other outlets' reports of what is shown, and those rank near it.
      if (groups.length > shown && i >= shown * 3) break;
      const { article, passage } = candidate.located;
      const quote = pickQuote(passage.text, candidate.matchedTerms, type);
      const facts = termSet(quote.text);
      const twin = groups.find(
        (group) => group.lead.article !== article.id && sameFact(group.facts, facts, (t) => this.weight(t)),
      );
      if (twin) {
        twin.others.push(passage.id);
        continue;
      }
      groups.push({
        facts,
        others: [],
        lead: {
          citation: passage.id,
          article: article.id,
          paragraph: passage.paragraph,
          title: article.title,
          publisher: article.publisher,
          url: article.url,
          published: article.published,
          author: article.author,
          language: article.language,
          quote: quote.text,
          highlights: quote.highlights,
          passage: passage.text,
          score: Math.round(candidate.score * 1000) / 1000,
          alsoReportedBy: [],
        },
      });
    }
    const page = groups
      .slice(offset, shown)
      .map((group) => ({ ...group.lead, alsoReportedBy: group.others }));
    return { query: question, results: page, hasMore: groups.length > shown };
  }

  /**
   * Finds candidate passages and orders them by a blend of passage relevance, the relevance of the whole
   * article, how much of the question they cover, how close together the matched words stand, and
   * whether they hold the kind of fact asked for. Passages that cover too little are dropped.
   */
  private rank(
    question: string,
    terms: string[],
    type: AnswerType,
    scope: Scope,
    wanted: number,
  ): Candidate[] {
    const w = this.ranking;
    const split = this.splitByCost(terms);
    if (!split) return [];
    const { selective, common } = split;

    const names = nameTerms(question);
    const options: SearchOptions = {
      ...this.searchOptions(scope),
      boostTerm: (term) => (names.has(term) ? w.nameBoost : 1),
    };
    const query = selective.join(' ');
    const hits = this.passageIndex.search(query, { ...options, bm25: w.bm25 });
    if (hits.length === 0) return [];
    const articleHits = new Map(
      this.articleIndex
        .search(query, { ...options, filter: undefined, bm25: w.articleBm25 })
        .map((hit) => [String(hit.id), hit]),
    );
    let topArticleScore = Number.EPSILON;
    for (const hit of articleHits.values()) topArticleScore = Math.max(topArticleScore, hit.score);
    const topPassageScore = hits[0]!.score;
    const termWeights = new Map(terms.map((term) => [term, this.weight(term)]));
    let totalWeight = 0;
    for (const weight of termWeights.values()) totalWeight += weight;
    const covered = (matched: ReadonlySet<string>) => {
      let sum = 0;
      for (const [term, weight] of termWeights) {
        if (matched.has(term)) sum += weight * (this.documentFrequency.has(term) ? 1 : w.fuzzyCoverage);
      }
      return sum / totalWeight;
    };
    const questionTerms = new Set(terms);
    const isKnown = (mention: string) => {
      const mentioned = analyze(mention);
      return mentioned.length > 0 && mentioned.every((term) => questionTerms.has(term));
    };

    // The best passages overall, and every matching passage of the best few articles: the passage that
    // answers is often not the one repeating most of the question's words.
    const topArticles = new Set(
      [...articleHits.values()]
        .sort((a, b) => b.score - a.score)
        .slice(0, w.articleCandidates)
        .map((hit) => String(hit.id)),
    );
    const pool = Math.max(w.candidates, wanted);
    // (A passage without any searched word could only pass the coverage floor on common words.)
    const chosen = hits.filter((hit, rank) => rank < pool || topArticles.has(articleOf(String(hit.id))));
    const candidates: (Candidate & { tokens: Token[] | undefined })[] = [];
    for (const hit of chosen) {
      const located = this.byCitation.get(String(hit.id));
      if (!located) continue;
      const matchedTerms = new Map(hit.terms.map((term) => [term, this.weight(term)]));
      const inPassage = new Set(hit.queryTerms);
      let tokens: Token[] | undefined;
      if (common.length > 0) {
        tokens = tokenize(located.passage.text);
        const present = new Set(tokens.map((token) => token.term));
        for (const term of common) {
          if (!present.has(term)) continue;
          inPassage.add(term);
          matchedTerms.set(term, termWeights.get(term)!);
        }
      }
      const articleHit = articleHits.get(located.article.id);
      const passageCoverage = covered(inPassage);
      const articleCoverage = covered(new Set([...inPassage, ...(articleHit?.queryTerms ?? [])]));
      if (passageCoverage < w.minPassageCoverage || articleCoverage < w.minArticleCoverage) continue;
      const holdsAnswerType = mentionsAnswerType(located.passage.text, type, isKnown);
      // "How many people live in Dunkirk?" is not answered by a passage about Dunkirk without a number.
      if (
        !holdsAnswerType &&
        (type === 'money' || type === 'quantity' || type === 'time') &&
        w.requireAskedFact
      ) {
        continue;
      }
      const articleShare = (articleHit?.score ?? 0) / topArticleScore;
      const score =
        hit.score / topPassageScore +
        w.article * articleShare +
        w.coverage * passageCoverage +
        (w.lead * articleShare ** w.leadArticlePower) / (1 + located.passage.index) +
        (holdsAnswerType ? w.answerType : 0);
      candidates.push({ located, score, matchedTerms, tokens });
    }

    // The layout of the matched words (proximity, densest window) adds at most `proximity + window`, and
    // needs the passage tokenized: it is measured only for candidates that could still reach the places
    // wanted, best first, the rest keep their lower bound.
    candidates.sort((a, b) => b.score - a.score);
    const layoutAtMost = w.proximity + w.window + w.phrase;
    // Pairs of question terms next to each other in the question ("Le Touquet", "English mafia").
    const pairs = new Set(terms.slice(1).map((term, i) => `${terms[i]} ${term}`));
    const best: number[] = [];
    for (const candidate of candidates) {
      if (best.length >= wanted && candidate.score + layoutAtMost < best[wanted - 1]!) break;
      const tokens = candidate.tokens ?? tokenize(candidate.located.passage.text);
      const layout = termLayout(tokens, candidate.matchedTerms, totalWeight);
      candidate.score +=
        w.proximity * layout.proximity +
        w.window * layout.densestWindow +
        w.phrase * phraseShare(tokens, pairs);
      const at = best.findIndex((score) => score < candidate.score);
      best.splice(at < 0 ? best.length : at, 0, candidate.score);
    }
    return candidates.sort((a, b) => b.score - a.score);
  }

  /**
   * MiniSearch scores every passage holding any searched term, so a question of common words ("said",
   * "police") would score much of a large corpus. Within a budget of postings all terms are searched;
   * past it the most common are left out of the search (`common`), and still count wherever they appear
   * in a candidate. Small corpora never reach the budget. `undefined` for a vague question: even its
   * rarest term is past `vagueQuestionPostings`.
   */
  private splitByCost(terms: readonly string[]): { selective: string[]; common: string[] } | undefined {
    const selective = [...terms].sort((a, b) => this.df(a) - this.df(b));
    if (this.df(selective[0]!) > this.ranking.vagueQuestionPostings) return undefined;
    let postings = selective.reduce((sum, term) => sum + this.df(term), 0);
    while (selective.length > 1 && postings > this.ranking.postingBudget)
      postings -= this.df(selective.pop()!);
    return { selective, common: terms.filter((term) => !selective.includes(term)) };
  }

  private df(term: string): number {
    return this.documentFrequency.get(term) ?? 0;
  }

  /** Articles whose headline or text is nearest the question, for a "no coverage found" reply. */
  closestHeadlines(question: string, limit = 3): Article[] {
    const terms = questionTerms(question.slice(0, MAX_QUESTION_CHARS));
    if (terms.length === 0) return [];
    const selective = this.splitByCost(terms)?.selective;
    if (!selective) return [];
    return this.articleIndex
      .search(selective.join(' '), { ...this.searchOptions(), boost: { title: 2 } })
      .slice(0, limit)
      .flatMap((hit) => this.byArticleId.get(String(hit.id)) ?? []);
  }
}

/** Analyses articles one by one, counting passage frequencies for weighting as it goes. */
class IndexBuilder {
  readonly passageIndex = new MiniSearch<IndexedDoc>(PASSAGE_INDEX);
  readonly articleIndex = new MiniSearch<IndexedDoc>(ARTICLE_INDEX);
  readonly documentFrequency = new Map<string, number>();
  readonly lookup = new CorpusLookup();

  add(article: Article): void {
    this.lookup.add(article);
    const title = joinTerms(article.title);
    const articleText = article.passages.map((passage) => joinTerms(passage.text));
    for (const [i, passage] of article.passages.entries()) {
      const text = articleText[i]!;
      for (const term of new Set(splitTerms(text))) {
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      }
      const context = `${articleText[i - 1] ?? ''} ${articleText[i + 1] ?? ''}`.trim();
      this.passageIndex.add({ id: passage.id, text, context });
    }
    this.articleIndex.add({ id: article.id, text: articleText.join(' '), title });
  }
}

/**
 * Terms of the question's proper names: capitalised words other than the first. Names pick out the
 * story a question is about better than its other words ("Which team does Zaki play for?").
 */
function nameTerms(question: string): Set<string> {
  const names = new Set<string>();
  for (const token of tokenize(question)) {
    if (token.position > 0 && /^\p{Lu}/u.test(question.slice(token.start, token.end))) names.add(token.term);
  }
  return names;
}

/** The distinct analysed terms of a question, as many as are searched. */
function questionTerms(question: string): string[] {
  return [...new Set(analyze(question))].slice(0, MAX_QUESTION_TERMS);
}

function articleOf(citation: string): string {
  return citation.slice(0, citation.indexOf('#'));
}

/** The share of the question's adjacent term pairs that stand together (a stop word apart at most) in the passage. */
function phraseShare(tokens: readonly Token[], pairs: ReadonlySet<string>): number {
  if (pairs.size === 0) return 0;
  const found = new Set<string>();
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!;
    const b = tokens[i]!;
    const pair = `${a.term} ${b.term}`;
    if (b.position - a.position <= 2 && pairs.has(pair)) found.add(pair);
  }
  return found.size / pairs.size;
}

function clamp(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

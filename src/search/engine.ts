import MiniSearch, {
  type AsPlainObject,
  type Options,
  type SearchOptions,
  type SearchResult,
} from 'minisearch';
import type { Article, Corpus } from '../corpus/article.ts';
import { finish, finishInSlices, type Steps, TimeSlicer } from '../event-loop.ts';
import { prepareEntities } from '../text/entities.ts';
import { splitSentences } from '../text/sentences.ts';
import { analyze, type Token, tokenize } from './analyze.ts';
import type { Answer, AnswerOptions, AnswerResult } from './answer.ts';
import { AnswerCache } from './answer-cache.ts';
import { type AnswerType, answeringEntities, answerTypeOf, mentionsAnswerType } from './answer-type.ts';
import { CorpusLookup, type Located } from './corpus-lookup.ts';
import { inPeriod } from './period.ts';
import { termLayout } from './proximity.ts';
import { pickQuote, sentenceWeight } from './quote.ts';
import { RANKING, type RankingWeights } from './ranking.ts';
import {
  type ConfidenceFeature,
  confidenceOf,
  type Features,
  LAYOUT_FEATURES,
  linear,
  RANKING_MODEL,
  type RankFeature,
  type RankingModel,
} from './ranking-model.ts';
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
export const ANALYSIS_VERSION = 5;

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
  /** Retrieval settings; tests and the evaluation try others. */
  ranking?: RankingWeights;
  /** The ranking and confidence model; the fitting script tries others. */
  model?: RankingModel;
}

/** What an answer is limited to: one article, a period of publication. */
type Scope = Pick<AnswerOptions, 'articleId' | 'period'>;

interface Candidate {
  located: Located;
  score: number;
  /** Indexed terms of the passage that matched the question, with their weights. */
  matchedTerms: Map<string, number>;
  /** Question terms found in the passage or its neighbours. */
  inPassage: Set<string>;
  /** The passage's tokens, when ranking needed them already. */
  tokens: Token[] | undefined;
  features: Features<RankFeature>;
  confidenceFeatures?: Features<ConfidenceFeature>;
  /** Calibrated probability that the passage answers the question (0 for those not measured). */
  confidence: number;
}

/** One candidate as the fitting script sees it. */
export interface FittingCandidate {
  citation: string;
  article: string;
  passage: string;
  features: Features<RankFeature>;
  confidenceFeatures: Features<ConfidenceFeature>;
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
  private readonly model: RankingModel;
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
    model: RankingModel = RANKING_MODEL,
  ) {
    super(corpus, lookup);
    prepareEntities();
    this.passageIndex = passageIndex;
    this.articleIndex = articleIndex;
    this.documentFrequency = documentFrequency;
    this.ranking = ranking;
    this.model = model;
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
      options.model,
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
      options.model,
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
    return finish(this.answerSteps(question, options));
  }

  /**
   * `answer` in slices of a few milliseconds, the event loop free between them. An engine on the bot's
   * own thread (INDEX_THREAD=main) searches this way, so that a slow search (a question matching
   * thousands of passages of one article) holds neither gateway heartbeats, nor `/healthz`, nor the
   * timers that acknowledge an interaction before Discord's 3 seconds are up.
   */
  override answerAsync(question: string, options: AnswerOptions = {}): Promise<Answer> {
    return finishInSlices(this.answerSteps(question, options));
  }

  private *answerSteps(question: string, options: AnswerOptions): Steps<Answer> {
    const limit = clamp(options.limit ?? 3, 1, MAX_LIMIT);
    const offset = clamp(options.offset ?? 0, 0, 1000);
    const scope: Scope = { articleId: options.articleId, period: options.period };
    const key = JSON.stringify([question, limit, offset, options.articleId ?? null, options.period ?? null]);
    const cached = this.answers.get(key);
    if (cached) return cached;
    const answer = yield* this.findAnswer(question, limit, offset, scope);
    this.answers.set(key, answer);
    return answer;
  }

  private *findAnswer(question: string, limit: number, offset: number, scope: Scope): Steps<Answer> {
    const none: Answer = { query: question, results: [], hasMore: false };
    const raw = question.slice(0, MAX_QUESTION_CHARS);
    const terms = questionTerms(raw);
    if (terms.length === 0) return none;

    const type = answerTypeOf(raw);
    const shown = offset + limit;
    // A passage is shown when it is likely enough to answer; when none is, that is "no coverage".
    const candidates = (yield* this.rank(raw, terms, type, scope, shown * 4)).filter(
      (candidate) => candidate.confidence >= this.model.threshold,
    );
    if (candidates.length === 0) return none;

    const isKnown = knownTo(terms);
    const groups: { lead: AnswerResult; facts: Set<string>; others: string[] }[] = [];
    for (const [i, candidate] of candidates.entries()) {
      // Past the page, candidates matter only as other outlets' reports of what is shown, and those rank near it.
      if (groups.length > shown && i >= shown * 3) break;
      yield;
      const { article, passage } = candidate.located;
      const quote = pickQuote(passage.text, candidate.matchedTerms, type, isKnown);
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
   * Finds candidate passages and orders them by the fitted ranking model (see `ranking-model.ts`): a
   * linear blend of passage and article relevance, how much of the question they cover, where they
   * stand in their article, whether they hold the kind of fact asked for and how the matched words lie.
   * Nothing is dropped here: each candidate also gets its confidence of answering, which decides what
   * is shown. With `everyLayout`, the tokens-based features are measured for every candidate (fitting).
   */
  private *rank(
    question: string,
    terms: string[],
    type: AnswerType,
    scope: Scope,
    wanted: number,
    everyLayout = false,
  ): Steps<Candidate[]> {
    const w = this.ranking;
    const model = this.model;
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
    let unknownWeight = 0;
    for (const [term, weight] of termWeights) {
      totalWeight += weight;
      if (!this.documentFrequency.has(term)) unknownWeight += weight;
    }
    const covered = (matched: ReadonlySet<string>) => {
      let sum = 0;
      for (const [term, weight] of termWeights) {
        if (matched.has(term)) sum += weight * (this.documentFrequency.has(term) ? 1 : w.fuzzyCoverage);
      }
      return sum / totalWeight;
    };
    const isKnown = knownTo(terms);
    const asksForFact = type === 'money' || type === 'quantity' || type === 'time';

    // The best passages overall, and every matching passage of the best few articles: the passage that
    // answers is often not the one repeating most of the question's words.
    const topArticles = new Set(
      [...articleHits.values()]
        .sort((a, b) => b.score - a.score)
        .slice(0, w.articleCandidates)
        .map((hit) => String(hit.id)),
    );
    const pool = Math.max(w.candidates, wanted);
    const chosen = hits.filter((hit, rank) => rank < pool || topArticles.has(articleOf(String(hit.id))));
    const candidates: Candidate[] = [];
    for (const hit of chosen) {
      yield;
      const located = this.byCitation.get(String(hit.id));
      if (!located) continue;
      const matchedTerms = new Map(hit.terms.map((term) => [term, this.weight(term)]));
      const inPassage = new Set(hit.queryTerms);
      // Question terms in the passage's own text (a fuzzily matched one is taken as its own).
      const own = new Set(hit.queryTerms.filter((term) => hit.match[term]?.includes('text') ?? true));
      let contextOnly = 0;
      for (const term of hit.terms) {
        if (!hit.match[term]?.includes('text')) contextOnly += this.weight(term);
      }
      let tokens: Token[] | undefined;
      if (common.length > 0) {
        tokens = tokenize(located.passage.text);
        const present = new Set(tokens.map((token) => token.term));
        for (const term of common) {
          if (!present.has(term)) continue;
          inPassage.add(term);
          own.add(term);
          matchedTerms.set(term, termWeights.get(term)!);
        }
      }
      const articleHit = articleHits.get(located.article.id);
      const articleShare = (articleHit?.score ?? 0) / topArticleScore;
      const holdsAnswerType = mentionsAnswerType(located.passage.text, type, isKnown);
      const features: Features<RankFeature> = {
        passage: hit.score / topPassageScore,
        article: articleShare,
        coverage: covered(own),
        articleCoverage: covered(new Set([...inPassage, ...(articleHit?.queryTerms ?? [])])),
        contextOnly: Math.min(1, contextOnly / totalWeight),
        speakerInContext:
          contextOnly > 0 && PRONOUN_SPEAKER.test(located.passage.text)
            ? Math.min(1, contextOnly / totalWeight)
            : 0,
        lead: articleShare / (1 + located.passage.index),
        answerType: holdsAnswerType ? 1 : 0,
        askedFactMissing: asksForFact && !holdsAnswerType ? 1 : 0,
        answerMeets: 0,
        proximity: 0,
        window: 0,
        phrase: 0,
      };
      candidates.push({
        located,
        score: linear(model.ranking, features),
        matchedTerms,
        inPassage,
        tokens,
        features,
        confidence: 0,
      });
    }

    // The layout of the matched words adds at most the sum of the layout weights, and needs the passage
    // tokenized: it is measured only for candidates that could still reach the places wanted, best
    // first; the rest keep their lower bound.
    candidates.sort((a, b) => b.score - a.score);
    let layoutAtMost = 0;
    for (const name of LAYOUT_FEATURES) layoutAtMost += Math.max(0, model.ranking[name]);
    // Pairs of question terms next to each other in the question ("Le Touquet", "English mafia").
    const pairs = new Set(terms.slice(1).map((term, i) => `${terms[i]} ${term}`));
    const best: number[] = [];
    for (const candidate of candidates) {
      if (!everyLayout && best.length >= wanted && candidate.score + layoutAtMost < best[wanted - 1]!) break;
      yield;
      const tokens = candidate.tokens ?? tokenize(candidate.located.passage.text);
      const layout = termLayout(tokens, candidate.matchedTerms, totalWeight);
      const f = candidate.features;
      f.proximity = layout.proximity;
      f.window = layout.densestWindow;
      f.phrase = phraseShare(tokens, pairs);
      f.answerMeets = answerMeets(
        candidate.located.passage.text,
        candidate.matchedTerms,
        totalWeight,
        type,
        isKnown,
      );
      candidate.score = linear(model.ranking, f);
      const at = best.findIndex((score) => score < candidate.score);
      best.splice(at < 0 ? best.length : at, 0, candidate.score);
    }
    candidates.sort((a, b) => b.score - a.score);
    // How much the question's matched words say: a question sharing only common words ("capital",
    // "won") with a large archive is less likely answered than one matching a rare name.
    const logPassages = Math.log(1 + this.passageCount);
    const rarestKnown = [...termWeights]
      .filter(([term]) => this.documentFrequency.has(term))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2);
    const rarestWeight = rarestKnown.reduce((sum, [, weight]) => sum + weight, 0);
    const numbers = terms.filter((term) => /^\d/.test(term));
    for (const candidate of candidates.slice(0, everyLayout ? candidates.length : wanted)) {
      let rarest = Number.POSITIVE_INFINITY;
      let matchedIdf = 0;
      for (const term of candidate.matchedTerms.keys()) {
        rarest = Math.min(rarest, this.df(term));
        matchedIdf += this.weight(term);
      }
      let missingRarest = 0;
      for (const [term, weight] of termWeights) {
        if (this.documentFrequency.has(term) && !candidate.inPassage.has(term)) {
          missingRarest = Math.max(missingRarest, weight / logPassages);
        }
      }
      let rareMissing = 0;
      for (const [term, weight] of rarestKnown) if (!candidate.inPassage.has(term)) rareMissing += weight;
      const articleTerms = articleHits.get(candidate.located.article.id)?.queryTerms ?? [];
      const numberMissing = numbers.some((n) => !candidate.inPassage.has(n) && !articleTerms.includes(n));
      const f = candidate.features;
      candidate.confidenceFeatures = {
        score: candidate.score,
        coverage: f.coverage,
        articleCoverage: f.articleCoverage,
        answerType: f.answerType,
        askedFactMissing: f.askedFactMissing,
        answerMeets: f.answerMeets,
        window: f.window,
        unknownShare: unknownWeight / totalWeight,
        specificity: Number.isFinite(rarest) ? 1 - Math.log(1 + rarest) / logPassages : 0,
        matchedIdf: matchedIdf / 10,
        missingRarest: Math.min(1, missingRarest),
        unknownAtScale: (unknownWeight / totalWeight) * Math.min(1, logPassages / Math.log(100_001)),
        rareMissing: rarestWeight > 0 ? rareMissing / rarestWeight : 0,
        numberMissing: numberMissing ? 1 : 0,
      };
      candidate.confidence = confidenceOf(model, candidate.confidenceFeatures);
    }
    return candidates;
  }

  /** Every candidate of a question with its features measured, for fitting the model (`npm run fit-ranking`). */
  candidatesForFitting(question: string): FittingCandidate[] {
    const raw = question.slice(0, MAX_QUESTION_CHARS);
    const terms = questionTerms(raw);
    if (terms.length === 0) return [];
    return finish(this.rank(raw, terms, answerTypeOf(raw), {}, 0, true)).map((candidate) => ({
      citation: candidate.located.passage.id,
      article: candidate.located.article.id,
      passage: candidate.located.passage.text,
      features: candidate.features,
      confidenceFeatures: candidate.confidenceFeatures!,
    }));
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

/** A statement attributed by a pronoun ("she added", "he told reporters", "said he"). */
const PRONOUN_SPEAKER =
  /\b(?:(?:he|she|they)\s+(?:said|says|added|adds|told|tells|continued|explained|insisted|warned|argued|wrote)|(?:said|added|says|adds)\s+(?:he|she))\b/i;

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

/** Whether a mention (a name, a date) is made only of the question's words: it cannot be the answer. */
function knownTo(terms: readonly string[]): (mention: string) => boolean {
  const asked = new Set(terms);
  return (mention) => {
    const mentioned = analyze(mention);
    return mentioned.length > 0 && mentioned.every((term) => asked.has(term));
  };
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

/**
 * Where the asked-for kind of fact and the question's words meet: the most question weight (over the
 * question's total) in one sentence that also holds a fact of the asked-for type, found by language
 * analysis.
 */
function answerMeets(
  passage: string,
  matchedTerms: ReadonlyMap<string, number>,
  totalWeight: number,
  type: AnswerType,
  isKnown: (mention: string) => boolean,
): number {
  if (type === 'other' || totalWeight <= 0) return 0;
  const entities = answeringEntities(passage, type, isKnown);
  if (entities.length === 0) return 0;
  let best = 0;
  for (const sentence of splitSentences(passage)) {
    if (!entities.some((e) => e.start >= sentence.start && e.end <= sentence.end)) continue;
    best = Math.max(best, sentenceWeight(sentence.text, matchedTerms) / totalWeight);
  }
  return Math.min(1, best);
}

function clamp(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

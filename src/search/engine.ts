import type MiniSearch from 'minisearch';
import type { Options, SearchOptions, SearchResult } from 'minisearch';
import { type Article, type ArticleMeta, articleMeta, type Corpus } from '../corpus/article.ts';
import { passageIds as passageIdsOf } from '../corpus/shared-corpus.ts';
import { finish, finishInSlices, type Steps, TimeSlicer } from '../event-loop.ts';
import { prepareEntities } from '../text/entities.ts';
import { analyze, tokenize, WordCache } from './analyze.ts';
import type { Answer, AnswerOptions, AnswerResult, Assurance, Timeline, TimelineEntry } from './answer.ts';
import { AnswerCache } from './answer-cache.ts';
import { answerFeatures, type RankedResult, SHAPE_DEPTH } from './answer-features.ts';
import { type AnswerType, answerTypeOf } from './answer-type.ts';
import { focusTerms, type MatchEvidence, speaksOfAsker } from './confidence.ts';
import { CorpusLookup } from './corpus-lookup.ts';
import { countedTerm } from './counted-term.ts';
import { everydayShare } from './everyday-words.ts';
import { publisherKey, publisherKeys } from './outlets.ts';
import {
  type Asked,
  type Candidate,
  candidateOf,
  type FeatureSource,
  judge,
  measureLayout,
  type Retrieved,
  textTermsOf,
} from './passage-features.ts';
import { PassageTokens } from './passage-tokens.ts';
import { inPeriod, type Period } from './period.ts';
import { type IdList, indexViews } from './postings/minisearch-view.ts';
import { PostingBuilder } from './postings/posting-builder.ts';
import { PassageFrequencies, type PostingStore } from './postings/posting-store.ts';
import { pickQuote } from './quote.ts';
import {
  type Features,
  logistic,
  RANKING_MODEL,
  type RankFeature,
  type RankingModel,
} from './ranking-model.ts';
import { RETRIEVAL, type RetrievalSettings } from './retrieval.ts';
import { sameFact, termSet } from './same-fact.ts';
import { MAX_LIMIT, SearchEngine } from './search-engine.ts';
import { asSearch, searchBegun } from './searches-in-flight.ts';
import { storiesOf } from './stories.ts';
import { type StoryRow, storyRows } from './story-features.ts';
import { STORY_MODEL, type StoryModel } from './story-model.ts';
import { answerInTime, type Found, type ReportGroup } from './time-layer.ts';
import { readTimeWords } from './time-words.ts';
import { orderTimeline, TIMELINE_ARTICLES, TIMELINE_DEPTH } from './timeline.ts';

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
export const ANALYSIS_VERSION = 6;

const splitTerms = (text: string) => (text === '' ? [] : text.split(' '));

// Both indexes are filled from postings of terms the analyser has produced already (`postings/`), so
// MiniSearch's own tokenizer and term processing only split the question's terms.
const PASSAGE_INDEX: Options<IndexedDoc> = {
  fields: ['text', 'context'],
  storeFields: [],
  tokenize: splitTerms,
  processTerm: (term) => term,
};
const ARTICLE_INDEX: Options<IndexedDoc> = { ...PASSAGE_INDEX, fields: ['text', 'title'] };

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
  retrieval?: RetrievalSettings;
  /** The ranking and confidence model; the fitting script tries others. */
  model?: RankingModel;
  /** The model of which stories "Which story?" offers (`story-model.ts`); the fitting script tries others. */
  storyModel?: StoryModel;
}

/** What an answer is limited to: one article, some outlets, a period of publication. */
type Scope = Pick<AnswerOptions, 'articleId' | 'period' | 'publishers'>;

/** One candidate as the fitting script sees it. */
export interface FittingCandidate {
  citation: string;
  article: string;
  passage: string;
  features: Features<RankFeature>;
  evidence: MatchEvidence;
  /** Its place among MiniSearch's passages, and its article's among MiniSearch's articles (null: none). */
  hitRank: number;
  articleRank: number | null;
}

/** The candidate pool, as many as `RetrievalSettings.candidates` and `articleCandidates` (retrieval.ts). */
export interface Pool {
  candidates: number;
  articleCandidates: number;
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

  /** What both indexes are made of; persisted by the index cache. */
  readonly postings: PostingStore;
  private readonly passageIndex: MiniSearch<IndexedDoc>;
  private readonly articleIndex: MiniSearch<IndexedDoc>;
  private readonly documentFrequency: PassageFrequencies;
  private readonly retrieval: RetrievalSettings;
  private readonly model: RankingModel;
  private readonly storyModel: StoryModel;
  private readonly answers = new AnswerCache();
  /** `idf()` of each term asked about so far (bounded by the vocabulary). */
  private readonly idfs = new Map<string, number>();
  /** The words this engine's questions and ranked passages are analysed with (see `WordCache`). */
  private readonly words: WordCache;
  /** What feature extraction reads of this engine (`passage-features.ts`). */
  private readonly features: FeatureSource;

  private constructor(
    corpus: Corpus,
    postings: PostingStore,
    lookup: CorpusLookup,
    {
      retrieval = RETRIEVAL,
      model = RANKING_MODEL,
      storyModel = STORY_MODEL,
      passageIds,
      words = WordCache.forQuestions(),
    }: BuildOptions & { passageIds?: IdList; words?: WordCache },
  ) {
    super(corpus, lookup);
    prepareEntities();
    this.postings = postings;
    const ids = {
      passages: passageIds ?? passageIdsOf(corpus),
      articles: corpus.articles.map((article) => article.id),
    };
    const views = indexViews(postings, ids, { passages: PASSAGE_INDEX, articles: ARTICLE_INDEX });
    this.passageIndex = views.passageIndex;
    this.articleIndex = views.articleIndex;
    this.documentFrequency = new PassageFrequencies(postings);
    this.retrieval = retrieval;
    this.model = model;
    this.storyModel = storyModel;
    this.words = words;
    const frequencies = this.documentFrequency;
    const passageTokens = new PassageTokens(words);
    this.features = {
      model,
      words,
      fuzzyCoverage: retrieval.fuzzyCoverage,
      passages: this.passageCount + retrieval.everydayPassages,
      idf: (term) => this.idf(term),
      df: (term) => this.df(term),
      has: (term) => frequencies.has(term),
      located: (citation) => this.byCitation.get(citation),
      tokens: (passage) => passageTokens.of(passage),
    };
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
    const postings = builder.postings.finish();
    const frequencies = new PassageFrequencies(postings);
    // Stop words (no terms) and words of many passages: those the passages ranked for questions are made of.
    const words = builder.words.commonWords((terms) =>
      terms.every((term) => (frequencies.get(term) ?? 0) >= COMMON_WORD_PASSAGES),
    );
    return new Engine(corpus, postings, builder.lookup, { ...options, words });
  }

  /**
   * Restores an engine from the `postings` of one built for the same corpus with the same analysis (the
   * index cache checks both before it calls this). `known`: for a corpus whose articles read their
   * passages only when first asked (restored from the CLI's snapshot), each article's passage count and
   * every passage's id in order, all of the loader's form, so that none is read before it is searched.
   */
  static fromPostings(
    corpus: Corpus,
    postings: PostingStore,
    options: BuildOptions = {},
    known?: { passageCounts: readonly number[]; passageIds: IdList },
  ): Engine {
    const lookup = known ? CorpusLookup.ofCounted(corpus, known.passageCounts) : CorpusLookup.of(corpus);
    return new Engine(corpus, postings, lookup, {
      ...options,
      ...(known ? { passageIds: known.passageIds } : {}),
    });
  }

  /**
   * A term's inverse document frequency over passages (BM25's idf): how rare it is, the weight of its
   * match. A term the corpus lacks is as rare as can be.
   */
  private idf(term: string): number {
    let idf = this.idfs.get(term);
    if (idf === undefined) {
      // The corpus's passages and as many of everyday English's as `everydayPassages` (see everyday-words.ts).
      const prior = this.retrieval.everydayPassages;
      const df = (this.documentFrequency.get(term) ?? 0) + prior * everydayShare(term);
      const passages = this.passageCount + prior;
      idf = Math.log(1 + (passages - df + 0.5) / (df + 0.5));
      this.idfs.set(term, idf);
    }
    return idf;
  }

  /** Fuzzy matching only for terms the corpus does not have: a misspelt name, never a real word. */
  private readonly fuzzy = (term: string): number | false => {
    // Below five letters one edit turns a word into another word ("read" into "road"). A word of
    // everyday English the corpus lacks is not misspelt either: bent, "wounded" became "pounds".
    if (this.documentFrequency.has(term) || term.length < 5 || /\d/.test(term)) return false;
    if (everydayShare(term) > 0) return false;
    return term.length >= 8 ? 2 : 1;
  };

  /** MiniSearch's options; a scope (one article, some outlets, a period) is its `filter`, so counts stay right. */
  private searchOptions(scope: Scope = {}): SearchOptions {
    const prefix = scope.articleId === undefined ? undefined : `${scope.articleId}#`;
    const period = scope.period;
    const outlets = publisherKeys(scope.publishers);
    const filter =
      prefix === undefined && period === undefined && outlets === undefined
        ? undefined
        : (result: SearchResult) => {
            const id = String(result.id);
            if (prefix !== undefined && !id.startsWith(prefix)) return false;
            const article = this.byCitation.get(id)?.article;
            if (outlets !== undefined && !outlets.has(publisherKey(article?.publisher ?? ''))) return false;
            return period === undefined || inPeriod(article?.published ?? null, period);
          };
    return {
      combineWith: 'OR',
      fuzzy: this.fuzzy,
      weights: { fuzzy: this.retrieval.fuzzyWeight, prefix: 0 },
      boost: { title: this.retrieval.titleBoost, context: this.retrieval.contextBoost },
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
    return asSearch(() => finish(this.answerSteps(question, options)));
  }

  /**
   * `answer` in slices of a few milliseconds, the event loop free between them. An engine on the bot's
   * own thread (INDEX_THREAD=main) searches this way, so that a slow search (a question matching
   * thousands of passages of one article) holds neither gateway heartbeats, nor `/healthz`, nor the
   * timers that acknowledge an interaction before Discord's 3 seconds are up.
   */
  override answerAsync(question: string, options: AnswerOptions = {}): Promise<Answer> {
    const ended = searchBegun();
    return finishInSlices(this.answerSteps(question, options)).finally(ended);
  }

  private *answerSteps(question: string, options: AnswerOptions): Steps<Answer> {
    const limit = clamp(options.limit ?? 3, 1, MAX_LIMIT);
    const offset = clamp(options.offset ?? 0, 0, 1000);
    const outlets = publisherKeys(options.publishers);
    const scope: Scope = {
      articleId: options.articleId,
      period: options.period,
      ...(outlets ? { publishers: [...outlets].sort() } : {}),
    };
    const timeWords = options.timeWords !== false;
    const key = JSON.stringify([
      question,
      limit,
      offset,
      options.articleId ?? null,
      scope.publishers ?? null,
      options.period ?? null,
      timeWords,
    ]);
    const cached = this.answers.get(key);
    if (cached) return cached;
    const raw = question.slice(0, MAX_QUESTION_CHARS);
    const answer = {
      ...(yield* answerInTime(raw, offset, limit, scope.period, timeWords, (text, period, shown) =>
        this.reportGroups(text, shown, { ...scope, period }),
      )),
      query: question,
    };
    this.answers.set(key, answer);
    return answer;
  }

  /**
   * The question's passages as groups of reports of one fact, enough for `shown` results and one more,
   * with how sure the engine is of them and, when several stories fit alike, those stories.
   */
  private *reportGroups(raw: string, shown: number, scope: Scope): Steps<Found> {
    const terms = questionTerms(this.words, raw);
    if (terms.length === 0) return { groups: [], assurance: 'none' };
    const type = answerTypeOf(raw);
    // How sure the reply is depends on the first result's confidence (the confidence is fitted on first
    // results: judged on each of a dozen candidates, one would pass by chance for many an off-topic
    // question); then the results at least as likely as the band's floor are shown.
    const { ranked, measureTheRest } = yield* this.ranking(raw, terms, type, scope, judgedDepth(shown));
    const assurance = this.assuranceOf(ranked);
    if (assurance === 'none') return { groups: [], assurance };
    const floor = this.model.closestThreshold;
    const candidates = ranked.filter((candidate) => candidate.confidence >= floor);
    // A confident answer is given as it is; otherwise, when several stories fit alike, the member chooses
    // among those the story model finds likeliest, read from every candidate of the pool.
    const readsStories = scope.articleId === undefined && assurance === 'closest';
    if (readsStories) yield* measureTheRest();
    const stories = readsStories ? storiesOf(storyRows(ranked), this.storyModel) : undefined;
    const isKnown = knownTo(this.words, terms);
    const groups: { reports: ReportGroup; facts: Set<string> }[] = [];
    for (const [i, candidate] of candidates.entries()) {
      // Past the page, candidates matter only as other outlets' reports of what is shown, and those rank near it.
      if (groups.length > shown && i >= shown * 3) break;
      yield;
      const { article, passage } = candidate.located;
      const quote = pickQuote(passage.text, candidate.matchedTerms, type, isKnown);
      const facts = termSet(quote.text);
      const report: AnswerResult = {
        ...quotedFrom(article, passage.id),
        paragraph: passage.paragraph,
        quote: quote.text,
        highlights: quote.highlights,
        passage: passage.text,
        score: Math.round(candidate.score * 1000) / 1000,
        alsoReportedBy: [],
      };
      const twin = groups.find(
        (group) =>
          group.reports[0]!.article !== article.id && sameFact(group.facts, facts, (t) => this.idf(t)),
      );
      if (twin) twin.reports.push(report);
      else groups.push({ facts, reports: [report] });
    }
    return {
      groups: groups.map((group) => group.reports),
      assurance,
      covered: ranked[0]!.confidence >= this.model.threshold,
      ...(stories ? { stories } : {}),
    };
  }

  /**
   * How sure the reply is: 'none' when the first result's coverage confidence is below the closest
   * band; else 'answer' when the answer model finds the first results likely enough to hold the answer,
   * 'closest' otherwise (`RankingModel.closestThreshold`, `answer`, `answerThreshold`).
   */
  private assuranceOf(ranked: readonly Candidate[]): Assurance {
    const first = ranked[0];
    if (first?.judged === undefined || first.confidence < this.model.closestThreshold) return 'none';
    const features = answerFeatures(
      first.judged,
      first.confidence,
      ranked.slice(0, SHAPE_DEPTH).map(rankedResult),
    );
    return logistic(this.model.answer, features) >= this.model.answerThreshold ? 'answer' : 'closest';
  }

  /**
   * Finds candidate passages and orders them by the fitted ranking model (see `ranking-model.ts`): a
   * linear blend of passage and article relevance, how much of the question they cover, where they
   * stand in their article, whether they hold the kind of fact asked for and how the matched words lie.
   * Nothing is dropped here: each candidate also gets its confidence of answering, which decides what
   * is shown. With `everyLayout`, the tokens-based features are measured for every candidate (fitting).
   */
  private *rank(...args: Parameters<Engine['ranking']>): Steps<Candidate[]> {
    const { ranked, measureTheRest } = yield* this.ranking(...args);
    yield* measureTheRest();
    return ranked;
  }

  /**
   * `rank`, but past the first `wanted` places some candidates may keep a lower bound of their score
   * until `measureTheRest` (see `measureLayout`): for a caller that may read only those places.
   */
  private *ranking(
    question: string,
    terms: string[],
    type: AnswerType,
    scope: Scope,
    wanted: number,
    everyLayout = false,
    pool: Pool = this.retrieval,
  ): Steps<{ ranked: Candidate[]; measureTheRest: () => Steps<void> }> {
    const retrieved = this.retrieve(question, terms, scope);
    if (!retrieved) return { ranked: [], measureTheRest: function* () {} };
    const asked = this.weigh(question, terms, type);
    const candidates: Candidate[] = [];
    for (const [hit, hitRank] of this.pool(retrieved, wanted, pool)) {
      yield;
      const candidate = candidateOf(this.features, hit, hitRank, retrieved, asked, everyLayout);
      if (candidate) candidates.push(candidate);
    }
    const measured = everyLayout ? Number.POSITIVE_INFINITY : wanted;
    const measureTheRest = yield* measureLayout(this.features, candidates, asked, measured);
    for (const candidate of candidates.slice(0, everyLayout ? candidates.length : wanted)) {
      judge(this.features, candidate, asked);
    }
    return { ranked: candidates, measureTheRest };
  }

  /** The passages and articles MiniSearch finds for the question's selective terms, with the best scores. */
  private retrieve(question: string, terms: readonly string[], scope: Scope): Retrieved | undefined {
    const w = this.retrieval;
    const split = this.splitByCost(terms);
    if (!split) return undefined;
    const names = nameTerms(this.words, question);
    const options: SearchOptions = {
      ...this.searchOptions(scope),
      boostTerm: (term) => (names.has(term) ? w.nameBoost : 1),
    };
    const query = split.selective.join(' ');
    const hits = this.passageIndex.search(query, { ...options, bm25: w.bm25 });
    if (hits.length === 0) return undefined;
    const articleHits = new Map(
      this.articleIndex
        .search(query, { ...options, filter: undefined, bm25: w.articleBm25 })
        .map((hit) => [String(hit.id), hit]),
    );
    const byScore = [...articleHits.values()].sort((a, b) => b.score - a.score);
    return {
      hits,
      textTerms: textTermsOf(hits),
      articleHits,
      topArticleScore: Math.max(Number.EPSILON, byScore[0]?.score ?? 0),
      topPassageScore: hits[0]!.score,
      articleRanks: new Map(byScore.map((hit, rank) => [String(hit.id), rank])),
      common: split.common,
    };
  }

  /** The question's terms with their rarity, and what counts as its answer. */
  private weigh(question: string, terms: string[], type: AnswerType): Asked {
    const termWeights = new Map(terms.map((term) => [term, this.idf(term)]));
    let totalWeight = 0;
    for (const weight of termWeights.values()) totalWeight += weight;
    return {
      terms,
      type,
      termWeights,
      totalWeight,
      speaksOfAsker: speaksOfAsker(question),
      focus: focusTerms(question),
      counted: countedTerm(question),
      isKnown: knownTo(this.words, terms),
      pairs: new Set(terms.slice(1).map((term, i) => `${terms[i]} ${term}`)),
    };
  }

  /**
   * The best passages overall, and every matching passage of the best few articles: the passage that
   * answers is often not the one repeating most of the question's words.
   */
  private *pool(
    { hits, articleRanks }: Retrieved,
    wanted: number,
    pool: Pool,
  ): Iterable<[SearchResult, number]> {
    const size = Math.max(pool.candidates, wanted);
    // A question of common words finds most of the corpus's passages: past the first `size`, the best
    // articles' passages are told by their citations' start, with no string made for each hit.
    const best: string[] = [];
    for (const [article, rank] of articleRanks) if (rank < pool.articleCandidates) best.push(`${article}#`);
    for (let rank = 0; rank < hits.length; rank++) {
      const hit = hits[rank]!;
      if (rank < size || ofArticles(String(hit.id), best)) yield [hit, rank];
    }
  }

  /**
   * The articles of a question's unscoped candidates with their story features, as a reply of `limit`
   * results ranks them, for fitting the story model (`npm run fit-stories`).
   */
  storyRowsForFitting(question: string, limit: number): StoryRow[] {
    const raw = question.slice(0, MAX_QUESTION_CHARS);
    const terms = questionTerms(this.words, raw);
    if (terms.length === 0) return [];
    return storyRows(finish(this.rank(raw, terms, answerTypeOf(raw), {}, judgedDepth(limit))));
  }

  /** Every candidate of a question with its features measured, for fitting the model (`npm run fit-ranking`). */
  candidatesForFitting(question: string, pool: Pool = this.retrieval): FittingCandidate[] {
    const raw = question.slice(0, MAX_QUESTION_CHARS);
    const terms = questionTerms(this.words, raw);
    if (terms.length === 0) return [];
    return finish(this.rank(raw, terms, answerTypeOf(raw), {}, 0, true, pool)).map((candidate) => ({
      citation: candidate.located.passage.id,
      article: candidate.located.article.id,
      passage: candidate.located.passage.text,
      features: candidate.features,
      evidence: candidate.evidence!,
      hitRank: candidate.hitRank,
      articleRank: candidate.articleRank,
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
    if (this.df(selective[0]!) > this.retrieval.vagueQuestionPostings) return undefined;
    let postings = selective.reduce((sum, term) => sum + this.df(term), 0);
    while (selective.length > 1 && postings > this.retrieval.postingBudget)
      postings -= this.df(selective.pop()!);
    return { selective, common: terms.filter((term) => !selective.includes(term)) };
  }

  private df(term: string): number {
    return this.documentFrequency.get(term) ?? 0;
  }

  /**
   * The coverage of a topic in date order, one entry per article (its passage nearest the topic), the
   * most relevant `TIMELINE_ARTICLES` articles at most; undated ones apart (`timeline.ts`).
   */
  timeline(topic: string, options: { period?: Period } = {}): Timeline {
    return asSearch(() => this.#timeline(topic, options));
  }

  #timeline(topic: string, options: { period?: Period }): Timeline {
    const raw = topic.slice(0, MAX_QUESTION_CHARS);
    const words = readTimeWords(raw).topic;
    const text = words === '' ? raw : words;
    const terms = questionTerms(this.words, text);
    if (terms.length === 0) return orderTimeline(topic, []);
    const isKnown = knownTo(this.words, terms);
    const entries: TimelineEntry[] = [];
    const listed = new Set<string>();
    for (const candidate of finish(
      this.rank(text, terms, 'other', { period: options.period }, TIMELINE_DEPTH),
    )) {
      if (entries.length >= TIMELINE_ARTICLES) break;
      const { article, passage } = candidate.located;
      // An article belongs when a passage is likely to be about the topic, or it has every word of it.
      const relevant =
        candidate.confidence >= this.model.threshold || candidate.features.articleCoverage >= 0.999;
      if (!relevant || listed.has(article.id)) continue;
      listed.add(article.id);
      const quote = pickQuote(passage.text, candidate.matchedTerms, 'other', isKnown);
      entries.push({ ...quotedFrom(article, passage.id), quote: quote.text, highlights: quote.highlights });
    }
    return orderTimeline(topic, entries);
  }

  /** Articles holding every word of the text (in their headline or paragraphs), most relevant first. */
  articlesMentioning(text: string, limit = 1000): Article[] {
    const terms = questionTerms(this.words, text.slice(0, MAX_QUESTION_CHARS));
    if (terms.length === 0) return [];
    return this.articleIndex
      .search(terms.join(' '), { ...this.searchOptions(), combineWith: 'AND' })
      .slice(0, limit)
      .flatMap((hit) => this.byArticleId.get(String(hit.id)) ?? []);
  }

  /** Articles whose headline or text is nearest the question, for a "no coverage found" reply. */
  closestHeadlines(question: string, limit = 3): Article[] {
    const terms = questionTerms(this.words, question.slice(0, MAX_QUESTION_CHARS));
    if (terms.length === 0) return [];
    const selective = this.splitByCost(terms)?.selective;
    if (!selective) return [];
    return this.articleIndex
      .search(selective.join(' '), { ...this.searchOptions(), boost: { title: 2 } })
      .slice(0, limit)
      .flatMap((hit) => this.byArticleId.get(String(hit.id)) ?? []);
  }
}

/**
 * How many of the best candidates a reply of `shown` results measures fully and judges: enough for the
 * page and its other outlets' reports, and at least a dozen, whose confidence the story model reads.
 */
function judgedDepth(shown: number): number {
  return Math.max(shown * 4, 12);
}

/** A word of at least this many passages is kept analysed for questions once an index is built. */
const COMMON_WORD_PASSAGES = 20;

/** Analyses articles one by one into postings. */
class IndexBuilder {
  readonly postings = new PostingBuilder();
  readonly lookup = new CorpusLookup();
  readonly words = WordCache.forCorpus();

  add(article: Article): void {
    this.lookup.add(article);
    this.postings.add(
      analyze(article.title, this.words),
      article.passages.map((passage) => analyze(passage.text, this.words)),
    );
  }
}

/**
 * Terms of the question's proper names: capitalised words other than the first. Names pick out the
 * story a question is about better than its other words ("Which team does Zaki play for?").
 */
function nameTerms(words: WordCache, question: string): Set<string> {
  const names = new Set<string>();
  for (const token of tokenize(question, words)) {
    if (token.position > 0 && /^\p{Lu}/u.test(question.slice(token.start, token.end))) names.add(token.term);
  }
  return names;
}

/** Whether a mention (a name, a date) is made only of the question's words: it cannot be the answer. */
function knownTo(words: WordCache, terms: readonly string[]): (mention: string) => boolean {
  const asked = new Set(terms);
  return (mention) => {
    const mentioned = analyze(mention, words);
    return mentioned.length > 0 && mentioned.every((term) => asked.has(term));
  };
}

/** The distinct analysed terms of a question, as many as are searched. */
function questionTerms(words: WordCache, question: string): string[] {
  return [...new Set(analyze(question, words))].slice(0, MAX_QUESTION_TERMS);
}

/** What cites a passage of an article: its citation and the article's metadata. */
function quotedFrom(article: Article, citation: string): ArticleMeta & { citation: string; article: string } {
  return { citation, article: article.id, ...articleMeta(article) };
}

/** A candidate as the answer model reads the ranking. */
function rankedResult(candidate: Candidate): RankedResult {
  return {
    score: candidate.score,
    article: candidate.located.article.id,
    articleRelevance: candidate.features.article,
    passageRelevance: candidate.features.passage,
  };
}

/** Whether a citation is of one of the articles whose citations start with `starts` (an id and `#`). */
function ofArticles(citation: string, starts: readonly string[]): boolean {
  // An article's id is what comes before a citation's first `#`.
  for (const start of starts)
    if (citation.startsWith(start) && citation.indexOf('#') === start.length - 1) return true;
  return false;
}

function clamp(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

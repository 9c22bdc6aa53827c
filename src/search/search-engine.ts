import type { Article, Corpus, Passage } from '../corpus/article.ts';
import { finishInSlices, TimeSlicer } from '../event-loop.ts';
import type { Answer, AnswerOptions, Timeline } from './answer.ts';
import { type Citations, CorpusLookup, type Located } from './corpus-lookup.ts';
import { type Outlet, outletsOf, publisherKey } from './outlets.ts';
import type { Period } from './period.ts';
import { foldTyped, MAX_SUGGESTION_TEXT, type SuggestionBuild, SuggestionIndex } from './suggestion-index.ts';

/** The most results one answer can hold. */
export const MAX_LIMIT = 10;

/**
 * One immutable corpus and a way to search it. What needs only the corpus (articles, citations,
 * context, autocomplete) is answered here; what needs the index is left to the subclass, which may
 * hold the index itself (`Engine`) or keep it on another thread (`WorkerEngine`).
 */
export abstract class SearchEngine {
  readonly corpus: Corpus;
  readonly version: string;
  readonly passageCount: number;
  protected readonly byCitation: Citations;
  protected readonly byArticleId: ReadonlyMap<string, Article>;
  /**
   * Autocomplete's lookup of headlines, ids and publishers: built in slices once the engine serves
   * (`prepareSuggestions`), else at the first autocomplete. An index's worker never autocompletes, and
   * a build or restore does not wait for it.
   */
  #suggestions: SuggestionIndex | undefined;
  #suggestionBuild: SuggestionBuild | undefined;
  #suggestionsReady: Promise<void> | undefined;
  #outlets: Outlet[] | undefined;
  #outletKeys: (readonly [Outlet, string])[] | undefined;

  protected constructor(corpus: Corpus, lookup: CorpusLookup = CorpusLookup.of(corpus)) {
    this.corpus = corpus;
    this.version = corpus.version;
    this.byCitation = lookup.byCitation;
    this.byArticleId = lookup.byArticleId;
    this.passageCount = lookup.passageCount;
  }

  /**
   * Answers a question with ranked, quoted, cited passages. Never throws for any question text; an
   * empty `results` means the corpus does not cover the question.
   */
  abstract answer(question: string, options?: AnswerOptions): Answer;

  /** Articles whose headline or text is nearest the question, for a "no coverage found" reply. */
  abstract closestHeadlines(question: string, limit?: number): Article[];

  /**
   * `answer`, for callers that can wait: an engine whose index is on another thread leaves this one
   * free meanwhile. Rejects where `answer` throws.
   */
  async answerAsync(question: string, options?: AnswerOptions): Promise<Answer> {
    return this.answer(question, options);
  }

  /** `closestHeadlines`, for callers that can wait (see `answerAsync`). */
  async closestHeadlinesAsync(question: string, limit?: number): Promise<Article[]> {
    return this.closestHeadlines(question, limit);
  }

  /** The coverage of a topic in date order, one entry per article; undated articles apart. */
  abstract timeline(topic: string, options?: { period?: Period }): Timeline;

  /** `timeline`, for callers that can wait (see `answerAsync`). */
  async timelineAsync(topic: string, options?: { period?: Period }): Promise<Timeline> {
    return this.timeline(topic, options);
  }

  /** Articles holding every word of the text, most relevant first (`/sources` searches with it). */
  abstract articlesMentioning(text: string, limit?: number): Article[];

  /** `articlesMentioning`, for callers that can wait (see `answerAsync`). */
  async articlesMentioningAsync(text: string, limit?: number): Promise<Article[]> {
    return this.articlesMentioning(text, limit);
  }

  /** Lets go of what the engine holds outside this thread; later searches throw. */
  close(): void {}

  /**
   * Called when a reload has put `successor` in this engine's place. A request that took this engine
   * before the swap may still search it; an engine whose index lives elsewhere lets go of it once
   * what it was asked is answered, and hands later searches to `successor`.
   */
  retire(_successor: SearchEngine): void {}

  articles(): readonly Article[] {
    return this.corpus.articles;
  }

  article(id: string): Article | undefined {
    return this.byArticleId.get(id);
  }

  passage(citation: string): Located | undefined {
    return this.byCitation.get(citation.trim());
  }

  /** A passage with up to `radius` passages either side, for "Show context" and `/cite`. */
  context(
    citation: string,
    radius = 1,
  ): { article: Article; passages: Passage[]; focus: number } | undefined {
    const located = this.passage(citation);
    if (!located) return undefined;
    const { article, passage } = located;
    const from = Math.max(0, passage.index - radius);
    const passages = article.passages.slice(from, passage.index + radius + 1);
    return { article, passages, focus: passage.index - from };
  }

  /** The corpus's outlets (its articles' publishers), most articles first. */
  outlets(): readonly Outlet[] {
    this.#outlets ??= outletsOf(this.corpus.articles);
    return this.#outlets;
  }

  /** The corpus's name of the outlet written (case, accents and spacing aside); undefined if it has none. */
  outlet(name: string): Outlet | undefined {
    const key = publisherKey(name);
    return key === '' ? undefined : this.outlets().find((outlet) => publisherKey(outlet.name) === key);
  }

  /** Outlets for autocomplete: those whose name starts with the text first, then those containing it. */
  suggestOutlets(text: string, limit = 25): Outlet[] {
    const needle = publisherKey(foldTyped(text));
    // Each outlet's key once per corpus, not once per keystroke.
    this.#outletKeys ??= this.outlets().map((outlet) => [outlet, publisherKey(outlet.name)] as const);
    const scored = this.#outletKeys.flatMap(([outlet, key]) => {
      const rank = key.startsWith(needle) ? 0 : key.includes(needle) ? 1 : -1;
      return rank < 0 ? [] : [{ outlet, rank }];
    });
    return scored
      .sort((a, b) => a.rank - b.rank)
      .slice(0, limit)
      .map((entry) => entry.outlet);
  }

  /**
   * Articles for autocomplete: id or headline starting with the text first, then the text starting a
   * word of the headline, the publisher or the id. An index lookup, whatever the corpus size.
   */
  suggestArticles(text: string, limit = 25): Article[] {
    return this.#suggestionIndex().suggest(text, limit);
  }

  /**
   * Builds the suggestion index in steps of a few milliseconds, so that the 0.3 s of a one-shot build
   * at 121k passages never holds the thread in one piece. An autocomplete meanwhile is answered by a
   * scan giving the same suggestions. Called once an engine serves; calling again waits for the same
   * build.
   */
  prepareSuggestions(slicer = new TimeSlicer()): Promise<void> {
    if (this.#suggestionsReady) return this.#suggestionsReady;
    if (this.#suggestions) {
      this.#suggestionsReady = Promise.resolve();
      return this.#suggestionsReady;
    }
    const build = SuggestionIndex.buildSteps(this.corpus.articles);
    this.#suggestionBuild = build;
    this.#suggestionsReady = finishInSlices(build.steps, slicer).then(
      (index) => {
        this.#suggestions = index;
        this.#suggestionBuild = undefined;
      },
      () => {
        // Started without anyone waiting: a failure must not end the process. An autocomplete then
        // builds in one go, and its own handler reports what fails.
        this.#suggestionBuild = undefined;
      },
    );
    return this.#suggestionsReady;
  }

  /** Whether autocomplete's index is built (else the first autocomplete or a sliced build builds it). */
  get suggestionsBuilt(): boolean {
    return this.#suggestions !== undefined;
  }

  #suggestionIndex(): SuggestionIndex {
    if (this.#suggestions) return this.#suggestions;
    if (this.#suggestionBuild) return this.#suggestionBuild.now();
    this.#suggestions = SuggestionIndex.build(this.corpus.articles);
    return this.#suggestions;
  }

  /**
   * Citations for autocomplete: `article#n` typed directly, or passages matching the words typed. Asks
   * the index with `answerAsync`, so a slow search leaves this thread free as a question's does.
   */
  async suggestCitations(text: string, limit = 25): Promise<{ citation: string; preview: string }[]> {
    const typed = text.trim().slice(0, MAX_SUGGESTION_TEXT);
    if (typed === '' || typed.includes('#')) {
      const [idPart = '', paragraphPart = ''] = typed.split('#');
      const out: { citation: string; preview: string }[] = [];
      for (const article of this.suggestArticles(idPart, limit)) {
        for (const passage of article.passages) {
          if (!passage.id.startsWith(`${article.id}#${paragraphPart}`)) continue;
          out.push({ citation: passage.id, preview: passage.text });
          if (out.length >= limit) return out;
        }
      }
      return out;
    }
    // Prefix matches of ids and titles come first (`/cite tete`), a passage of each article per round,
    // then passages that answer the words typed.
    const out: { citation: string; preview: string }[] = [];
    const starting = this.#suggestionIndex().starting(typed, limit);
    for (let round = 0; out.length < limit; round++) {
      const next = starting.flatMap((article) => article.passages[round] ?? []);
      if (next.length === 0) break;
      for (const passage of next.slice(0, limit - out.length))
        out.push({ citation: passage.id, preview: passage.text });
    }
    if (out.length >= limit) return out;
    const listed = new Set(out.map((entry) => entry.citation));
    for (const result of (await this.answerAsync(foldTyped(typed), { limit: MAX_LIMIT })).results) {
      if (out.length >= limit) break;
      if (!listed.has(result.citation)) out.push({ citation: result.citation, preview: result.passage });
    }
    return out;
  }
}

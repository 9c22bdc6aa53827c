import type { Article } from '../../src/corpus/article.ts';
import {
  ADOPTED_METHOD,
  CONTEXT_METHODS,
  type ContextMethod,
  type EarlierExchange,
  type FollowUpSearch,
  followUpSearch,
} from '../../src/followups/follow-up-context.ts';
import type { AnswerOptions } from '../../src/search/answer.ts';
import { answersQuestion, type RetrievedPassage } from '../lib/newsqa.ts';
import type { FollowUpRecord } from './follow-up-set.ts';
import type { Half } from './question-set.ts';

/** Results asked for each question: enough for hit@5, as the other sets ask (`runs.ts`). */
const RESULT_LIMIT = 5;

/** The engine as a follow-up asks it: one article by id, and a question with the bot's options. */
export interface FollowUpEngine {
  article(id: string): Article | undefined;
  answer(
    question: string,
    options: AnswerOptions,
  ):
    | { results: readonly (RetrievedPassage & { citation: string })[] }
    | Promise<{
        results: readonly (RetrievedPassage & { citation: string })[];
      }>;
}

/**
 * Where the earlier story comes from: `cited`, the first result of the engine's answer to the first
 * question (what the bot's reply cites, so a first answer from the wrong story carries that story over);
 * `known`, the pair's own article (as if the first answer were always right), to tell the two apart.
 */
export type StorySource = 'cited' | 'known';

/** What happened to one follow-up, asked one way. */
export interface FollowUpOutcome {
  id: string;
  half: Half;
  method: ContextMethod;
  source: StorySource;
  /** Whether the first question's first result came from the pair's article. */
  firstRight: boolean;
  /** 1-based rank of the follow-up's answer among the first results, or null. */
  rank: number | null;
  /** The story held nothing for it and the archive was asked instead. */
  fellBack: boolean;
}

/** Asks each pair's follow-up every way, with the story cited by the first answer and with the known one. */
export async function evaluateFollowUps(
  engine: FollowUpEngine,
  pairs: readonly FollowUpRecord[],
  methods: readonly ContextMethod[] = CONTEXT_METHODS,
): Promise<FollowUpOutcome[]> {
  const outcomes: FollowUpOutcome[] = [];
  for (const pair of pairs) {
    const first = (await engine.answer(pair.first, { limit: RESULT_LIMIT })).results[0];
    const firstRight = first?.article === pair.article;
    const stories: Record<StorySource, EarlierExchange | null> = {
      cited: first ? { question: pair.first, article: first.article, citation: first.citation } : null,
      known: { question: pair.first, article: pair.article },
    };
    for (const source of ['cited', 'known'] as const) {
      const earlier = stories[source];
      for (const method of methods) {
        const story = earlier ? (engine.article(earlier.article) ?? null) : null;
        const search: FollowUpSearch = earlier
          ? followUpSearch(pair.followUp, earlier, story, method)
          : { question: pair.followUp };
        const { results, fellBack } = await ask(engine, search);
        const index = results.findIndex((result) =>
          answersQuestion(result, {
            id: pair.id,
            article: pair.article,
            question: pair.followUp,
            answer: pair.answer,
          }),
        );
        outcomes.push({
          id: pair.id,
          half: pair.half,
          method,
          source,
          firstRight,
          rank: index === -1 ? null : index + 1,
          fellBack,
        });
      }
    }
  }
  return outcomes;
}

async function ask(
  engine: FollowUpEngine,
  search: FollowUpSearch,
): Promise<{ results: readonly RetrievedPassage[]; fellBack: boolean }> {
  const options: AnswerOptions = {
    limit: RESULT_LIMIT,
    ...(search.articleId ? { articleId: search.articleId } : {}),
  };
  const { results } = await engine.answer(search.question, options);
  if (results.length > 0 || search.fallback === undefined) return { results, fellBack: false };
  return { results: (await ask(engine, search.fallback)).results, fellBack: true };
}

/** hit@k of one way and story source over one half. */
export interface FollowUpSummary {
  method: ContextMethod;
  source: StorySource;
  half: Half;
  pairs: number;
  hitAt1: number;
  hitAt3: number;
  hitAt5: number;
  /** Share of pairs whose first answer cited the pair's story. */
  firstRight: number;
  fellBack: number;
}

export function summarizeFollowUps(outcomes: readonly FollowUpOutcome[]): FollowUpSummary[] {
  const summaries: FollowUpSummary[] = [];
  for (const source of ['cited', 'known'] as const) {
    for (const method of CONTEXT_METHODS) {
      for (const half of ['tune', 'test'] as const) {
        const group = outcomes.filter(
          (outcome) => outcome.source === source && outcome.method === method && outcome.half === half,
        );
        if (group.length === 0) continue;
        const share = (test: (outcome: FollowUpOutcome) => boolean) =>
          group.filter(test).length / group.length;
        const within = (k: number) => share(({ rank }) => rank !== null && rank <= k);
        summaries.push({
          method,
          source,
          half,
          pairs: group.length,
          hitAt1: within(1),
          hitAt3: within(3),
          hitAt5: within(5),
          firstRight: share((outcome) => outcome.firstRight),
          fellBack: share((outcome) => outcome.fellBack),
        });
      }
    }
  }
  return summaries;
}

/** The summaries as a table: one row per way and story source, tune and test side by side. */
export function followUpTable(summaries: readonly FollowUpSummary[]): string {
  const f = (value: number) => value.toFixed(3);
  const lines = [
    'follow-ups (issue 32): hit@k of the follow-up, by how the earlier story is carried over',
    `${'story'.padEnd(7)} ${'method'.padEnd(13)} ${'half'.padEnd(5)} pairs  hit@1  hit@3  hit@5  first-right  fell-back`,
  ];
  for (const s of summaries) {
    lines.push(
      `${s.source.padEnd(7)} ${s.method.padEnd(13)} ${s.half.padEnd(5)} ${String(s.pairs).padStart(5)}  ${f(s.hitAt1)}  ${f(s.hitAt3)}  ${f(s.hitAt5)}  ${f(s.firstRight).padStart(11)}  ${f(s.fellBack).padStart(9)}`,
    );
  }
  lines.push(
    "story: 'cited' is the first answer's first result (what the bot's reply cites); 'known' the pair's own article.",
    `method 'none' is the follow-up without context; the bot answers follow-ups by '${ADOPTED_METHOD}' (chosen on the tune half).`,
  );
  return lines.join('\n');
}

import type { Corpus } from '../../src/corpus/article.ts';
import { Engine } from '../../src/search/engine.ts';
import type { Period } from '../../src/search/period.ts';
import type { BenchIndex, EngineAdapter } from './engine-adapter.ts';
import { restoreEngine, serializeEngine } from './newsdesk.ts';

/**
 * Issue 11's period, for the filtered `/ask`: four months of the Reuters archive, about a third of its
 * dated articles (NewsQA and BBC are undated, so the filter leaves them out).
 */
export const BENCH_PERIOD: Period = { since: '1987-03-01', until: '1987-06-30' };

/** This project's engine asked as `/ask since:1987-03 until:1987-06` asks it. */
export const newsdeskFiltered: EngineAdapter = {
  name: 'newsdesk-filtered',
  packageName: 'minisearch',
  configuration: `this project, /ask with a period: engine.answer(question, { limit: 5, period: ${BENCH_PERIOD.since}..${BENCH_PERIOD.until} })`,
  build: (corpus: Corpus) => filtered(Engine.build(corpus)),
  load: (corpus: Corpus, serialized: string | Uint8Array) => filtered(restoreEngine(corpus, serialized)),
};

/** This project's engine asked as `/timeline` asks it: the whole timeline of the question's topic. */
export const newsdeskTimeline: EngineAdapter = {
  name: 'newsdesk-timeline',
  packageName: 'minisearch',
  configuration: 'this project, /timeline: engine.timeline(question) (up to 50 articles in date order)',
  build: (corpus: Corpus) => timeline(Engine.build(corpus)),
  load: (corpus: Corpus, serialized: string | Uint8Array) => timeline(restoreEngine(corpus, serialized)),
};

function filtered(engine: Engine): BenchIndex {
  return {
    search: (question, limit) => engine.answer(question, { limit, period: BENCH_PERIOD }).results,
    serialize: () => serializeEngine(engine),
  };
}

function timeline(engine: Engine): BenchIndex {
  return {
    // A timeline has no ranking to score: its hit@5 only says whether the article is among its first five lines.
    search: (question, limit) => {
      const { dated, undated } = engine.timeline(question);
      return [...dated, ...undated].slice(0, limit).map((entry) => {
        const located = engine.passage(entry.citation);
        return { article: entry.article, passage: located?.passage.text ?? entry.quote };
      });
    },
    serialize: () => serializeEngine(engine),
  };
}

import type { Article } from '../../src/corpus/article.ts';
import { finishInSlices, type Steps } from '../../src/event-loop.ts';
import { SuggestionIndex } from '../../src/search/suggestion-index.ts';

/** One run's figures: the longest gap between event-loop turns and the build's CPU on this thread. */
export interface BuildRun {
  stallMs: number;
  cpuMs: number;
  /** From the engine being ready to the index built. */
  wallMs: number;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

/**
 * Turns of the event loop, back to back, as other members' interactions would take them: the longest
 * gap between two is how long an interaction arriving then waits for the thread.
 */
function watchTurns() {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const turn = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop: () => {
      running = false;
      return longest;
    },
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Today's way before: the index built in one go by the first autocomplete after the engine is ready. */
async function oneShot(articles: readonly Article[]): Promise<BuildRun> {
  const turns = watchTurns();
  const ready = performance.now();
  await nextTurn();
  const started = process.cpuUsage();
  const index = SuggestionIndex.build(articles);
  const cpu = cpuMs(started);
  const wallMs = performance.now() - ready;
  index.suggest('oil', 25);
  await nextTurn();
  await nextTurn();
  return { stallMs: turns.stop(), cpuMs: cpu, wallMs };
}

/**
 * The index built in slices from the moment the engine is ready, the first autocomplete arriving after
 * the build, or (`early`) at the next turn, answered by the build's scan at its worst moment (no
 * article read yet), its CPU counted with the build's.
 */
async function sliced(articles: readonly Article[], early: boolean): Promise<BuildRun> {
  const turns = watchTurns();
  const ready = performance.now();
  const build = SuggestionIndex.buildSteps(articles);
  let cpu = 0;
  function* timed(steps: Steps<SuggestionIndex>): Steps<SuggestionIndex> {
    for (;;) {
      const started = process.cpuUsage();
      const step = steps.next();
      cpu += cpuMs(started);
      if (step.done) return step.value;
      yield;
    }
  }
  const done = finishInSlices(timed(build.steps));
  await nextTurn();
  if (early) {
    const started = process.cpuUsage();
    build.now().suggest('oil', 25);
    cpu += cpuMs(started);
  }
  const index = await done;
  const wallMs = performance.now() - ready;
  index.suggest('oil', 25);
  await nextTurn();
  await nextTurn();
  return { stallMs: turns.stop(), cpuMs: cpu, wallMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Both ways `rounds` times, alternating, with their medians. */
export async function measureSuggestionBuild(articles: readonly Article[], rounds = 5) {
  const once: BuildRun[] = [];
  const slices: BuildRun[] = [];
  const early: BuildRun[] = [];
  SuggestionIndex.build(articles.slice(0, 500)); // warm the code up
  for (let round = 0; round < rounds; round++) {
    once.push(await oneShot(articles));
    slices.push(await sliced(articles, false));
    early.push(await sliced(articles, true));
  }
  const summary = (runs: BuildRun[]): BuildRun => ({
    stallMs: median(runs.map((run) => run.stallMs)),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    wallMs: median(runs.map((run) => run.wallMs)),
  });
  return { oneShot: summary(once), sliced: summary(slices), early: summary(early) };
}

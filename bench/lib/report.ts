import type { EngineMeasurement, MeasurementOutcome } from './measurement.ts';
import { isFailed } from './measurement.ts';

/** Name of this project's engine in the report. */
export const OUR_ENGINE = 'newsdesk';

/** Allowed growth of per-passage build time and memory from the smallest to the largest size. */
export const LINEAR_GROWTH_TOLERANCE = 1.2;

/** One line of the checklist. */
export interface TargetCheck {
  target: string;
  status: 'PASS' | 'FAIL' | 'SKIP';
  detail: string;
}

/** A ratio of our engine's figure to a peer's, at one corpus size. */
export interface PeerRatio {
  corpusName: string;
  metric: string;
  peer: string;
  ratio: number;
}

/**
 * Per-passage cost at the largest size over the same at the smallest, per engine. Build cost is CPU
 * time, which other load on the machine inflates far less than wall time.
 */
export interface GrowthRatio {
  engine: string;
  from: string;
  to: string;
  buildPerPassage: number;
  heapPerPassage: number;
}

function measured(outcomes: readonly MeasurementOutcome[]): EngineMeasurement[] {
  return outcomes.filter((outcome): outcome is EngineMeasurement => !isFailed(outcome));
}

/** Corpus names in the order they were first measured (smallest first). */
function corpusOrder(outcomes: readonly MeasurementOutcome[]): string[] {
  return [...new Set(outcomes.map((outcome) => outcome.corpusName))];
}

function find(results: readonly EngineMeasurement[], engine: string, corpusName: string) {
  return results.find((result) => result.engine === engine && result.corpusName === corpusName);
}

/** Our engine against each peer at each size: p50, p99, CPU per query, build CPU, index heap, hit@5. */
export function peerRatios(outcomes: readonly MeasurementOutcome[]): PeerRatio[] {
  const results = measured(outcomes);
  const ratios: PeerRatio[] = [];
  for (const corpusName of corpusOrder(outcomes)) {
    const ours = find(results, OUR_ENGINE, corpusName);
    if (!ours) continue;
    for (const peer of results.filter(
      (result) => result.corpusName === corpusName && result.engine !== OUR_ENGINE,
    )) {
      const metrics: [string, number, number][] = [
        ['query p50', ours.latency.p50, peer.latency.p50],
        ['query p99', ours.latency.p99, peer.latency.p99],
        ['query CPU', ours.cpuPerQueryMs, peer.cpuPerQueryMs],
        ['build CPU', ours.buildCpuMs, peer.buildCpuMs],
        ['index heap', ours.indexHeapBytes, peer.indexHeapBytes],
        ['hit@5', ours.quality.hitAt5, peer.quality.hitAt5],
      ];
      for (const [metric, ourValue, peerValue] of metrics) {
        ratios.push({ corpusName, metric, peer: peer.engine, ratio: ourValue / peerValue });
      }
    }
  }
  return ratios;
}

/** Growth of per-passage build time and index heap from the smallest to the largest measured size. */
export function growthRatios(outcomes: readonly MeasurementOutcome[]): GrowthRatio[] {
  const results = measured(outcomes);
  const names = corpusOrder(outcomes);
  const from = names[0];
  const to = names[names.length - 1];
  if (from === undefined || to === undefined || from === to) return [];
  const growth: GrowthRatio[] = [];
  for (const engine of new Set(results.map((result) => result.engine))) {
    const small = find(results, engine, from);
    const large = find(results, engine, to);
    if (!small || !large) continue;
    growth.push({
      engine,
      from,
      to,
      buildPerPassage: large.buildCpuMs / large.passages / (small.buildCpuMs / small.passages),
      heapPerPassage: large.indexHeapBytes / large.passages / (small.indexHeapBytes / small.passages),
    });
  }
  return growth;
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);

/**
 * The issue's targets, checked at the largest corpus size measured: our query p99 at most 2x lunr's and
 * below MiniSearch defaults', our hit@5 the best of all engines, and per-passage build time and index
 * heap growing at most LINEAR_GROWTH_TOLERANCE times from the smallest to the largest size.
 */
export function checkTargets(outcomes: readonly MeasurementOutcome[]): TargetCheck[] {
  const results = measured(outcomes);
  const names = corpusOrder(outcomes);
  const largest = names[names.length - 1];
  const skip = (target: string, detail: string): TargetCheck => ({ target, status: 'SKIP', detail });
  const verdict = (target: string, pass: boolean, detail: string): TargetCheck => ({
    target,
    status: pass ? 'PASS' : 'FAIL',
    detail,
  });
  const ours = largest === undefined ? undefined : find(results, OUR_ENGINE, largest);
  const at = largest ?? 'no corpus';
  const targets = {
    lunr: `query p99 <= 2x lunr's at ${at}`,
    minisearch: `query p99 < MiniSearch defaults' at ${at}`,
    quality: `hit@5 best of all engines at ${at}`,
    build: `build CPU time per passage grows <= ${LINEAR_GROWTH_TOLERANCE}x from smallest to largest size`,
    heap: `index heap per passage grows <= ${LINEAR_GROWTH_TOLERANCE}x from smallest to largest size`,
  };
  if (!ours || largest === undefined) {
    return Object.values(targets).map((target) => skip(target, `${OUR_ENGINE} not measured at ${at}`));
  }
  const checks: TargetCheck[] = [];
  const lunr = find(results, 'lunr', largest);
  checks.push(
    lunr
      ? verdict(
          targets.lunr,
          ours.latency.p99 <= 2 * lunr.latency.p99,
          `${fixed(ours.latency.p99)} ms vs lunr ${fixed(lunr.latency.p99)} ms (ratio ${fixed(ours.latency.p99 / lunr.latency.p99)})`,
        )
      : skip(targets.lunr, 'lunr not measured'),
  );
  const miniSearch = find(results, 'minisearch', largest);
  checks.push(
    miniSearch
      ? verdict(
          targets.minisearch,
          ours.latency.p99 < miniSearch.latency.p99,
          `${fixed(ours.latency.p99)} ms vs MiniSearch ${fixed(miniSearch.latency.p99)} ms (ratio ${fixed(ours.latency.p99 / miniSearch.latency.p99)})`,
        )
      : skip(targets.minisearch, 'MiniSearch not measured'),
  );
  const peers = results.filter((result) => result.corpusName === largest && result.engine !== OUR_ENGINE);
  const bestPeer = peers.reduce<EngineMeasurement | undefined>(
    (best, peer) => (best === undefined || peer.quality.hitAt5 > best.quality.hitAt5 ? peer : best),
    undefined,
  );
  const failedAtLargest = outcomes.filter((outcome) => isFailed(outcome) && outcome.corpusName === largest);
  checks.push(
    bestPeer
      ? verdict(
          targets.quality,
          ours.quality.hitAt5 > bestPeer.quality.hitAt5 && failedAtLargest.length === 0,
          `${fixed(ours.quality.hitAt5, 3)} vs best peer ${bestPeer.engine} ${fixed(bestPeer.quality.hitAt5, 3)}` +
            (failedAtLargest.length > 0
              ? `; not measured: ${failedAtLargest.map((f) => f.engine).join(', ')}`
              : ''),
        )
      : skip(targets.quality, 'no peer measured'),
  );
  const growth = growthRatios(outcomes).find((ratio) => ratio.engine === OUR_ENGINE);
  if (!growth) {
    checks.push(skip(targets.build, 'needs two corpus sizes'), skip(targets.heap, 'needs two corpus sizes'));
  } else {
    checks.push(
      verdict(
        targets.build,
        growth.buildPerPassage <= LINEAR_GROWTH_TOLERANCE,
        `${growth.from} -> ${growth.to}: ${fixed(growth.buildPerPassage)}x`,
      ),
      verdict(
        targets.heap,
        growth.heapPerPassage <= LINEAR_GROWTH_TOLERANCE,
        `${growth.from} -> ${growth.to}: ${fixed(growth.heapPerPassage)}x`,
      ),
    );
  }

  return checks;
}

// Recomputes nearWords / nearWordsSure of every cached candidate under other parameters, offline.
import { readFileSync, writeFileSync } from 'node:fs';
import { tokenize } from '../src/search/analyze.ts';
import { dot, readWordSimilarity } from '../src/semantic/word-similarity.ts';
const [, , out, floorS, sureS, minWeightS] = process.argv;
const floor = Number(floorS), sureAt = Number(sureS), minWeight = Number(minWeightS ?? 0);
const sim = readWordSimilarity('/tmp/seed34/vectors');
const cache = JSON.parse(readFileSync('/tmp/seed34/cand-near.json', 'utf8'));
for (const q of cache.asked) {
  const text: string = q.question.question;
  const weights = new Map<string, number>();
  let total = 0;
  for (const c of q.candidates) { for (const t of c.evidence.terms) weights.set(t.term, t.weight); break; }
  for (const w of weights.values()) total += w;
  const qv: { term: string; weight: number; v: Float32Array }[] = [];
  const seenQ = new Set<string>();
  for (const tok of tokenize(text)) {
    const w = weights.get(tok.term);
    if (w === undefined || seenQ.has(tok.term) || w < minWeight) continue;
    const v = sim.vector(text.slice(tok.start, tok.end));
    if (v) { seenQ.add(tok.term); qv.push({ term: tok.term, weight: w, v }); }
  }
  for (const c of q.candidates) {
    const toks = tokenize(c.passage);
    const present = new Set(toks.map((t) => t.term));
    const pv: Float32Array[] = []; const seen = new Set<string>();
    for (const t of toks) { const w = c.passage.slice(t.start, t.end).toLowerCase(); if (seen.has(w)) continue; seen.add(w); const v = sim.vector(w); if (v) pv.push(v); }
    let soft = 0, sure = 0;
    for (const { term, weight, v } of qv) {
      if (present.has(term)) continue;
      let best = 0; for (const o of pv) best = Math.max(best, dot(v, o));
      if (best > floor) soft += (weight * (best - floor)) / (1 - floor);
      if (best >= sureAt) sure += weight;
    }
    c.features.nearWords = total > 0 ? Math.min(1, soft / total) : 0;
    c.features.nearWordsSure = total > 0 ? Math.min(1, sure / total) : 0;
  }
}
writeFileSync(out!, JSON.stringify(cache));

// Fills answerNear for every cached candidate, by the engine's own function, offline.
import { readFileSync, writeFileSync } from 'node:fs';
import { analyze, tokenize } from '../src/search/analyze.ts';
import { answeringEntities, answerTypeOf } from '../src/search/answer-type.ts';
import { answerNear } from '../src/search/passage-features.ts';
const [, , from, out] = process.argv;
const cache = JSON.parse(readFileSync(from!, 'utf8'));
const t0 = Date.now();
for (const q of cache.asked) {
  const question: string = q.question.question;
  const type = answerTypeOf(question);
  const weights = new Map<string, number>();
  for (const c of q.candidates) { for (const t of c.evidence.terms) weights.set(t.term, t.weight); break; }
  let total = 0; for (const w of weights.values()) total += w;
  const isKnown = (m: string) => { const a = analyze(m); return a.length > 0 && a.every((x) => weights.has(x)); };
  for (const c of q.candidates) {
    const entities = type === 'other' ? [] : answeringEntities(c.passage, type, isKnown);
    c.features.answerNear = answerNear(tokenize(c.passage), entities, weights, total);
  }
}
console.error('ms', Date.now() - t0);
writeFileSync(out!, JSON.stringify(cache));

import { readFileSync } from 'node:fs';
import { confidenceFeatures } from '../src/search/confidence.ts';
import { CONFIDENCE_FEATURES, linear, parseRankingModel } from '../src/search/ranking-model.ts';

const model = parseRankingModel(JSON.parse(readFileSync(process.argv[2]!, 'utf8')));
const data = JSON.parse(readFileSync('/tmp/r10-fit-cache.json', 'utf8')) as any[];
const rows: any[] = [];
for (const a of data) {
  if (!['seed', 'bbc-reuters', 'off-topic@archive', 'off-topic@seed'].includes(a.set)) continue;
  const scored = a.candidates
    .map((c: any, i: number) => ({ c, label: a.labels[i], score: linear(model.ranking, c.features) }))
    .sort((x: any, y: any) => y.score - x.score);
  const top = scored[0];
  if (!top) {
    rows.push({ set: a.set, q: a.question.question, conf: 0 });
    continue;
  }
  const f = confidenceFeatures(top.c.evidence, top.c.features, top.score);
  const conf = 1 / (1 + Math.exp(-(model.confidence.bias + linear(model.confidence.weights, f))));
  rows.push({
    set: a.set,
    q: a.question.question,
    conf: conf.toFixed(3),
    hit: top.label,
    f: CONFIDENCE_FEATURES.map((n) => `${n}=${f[n].toFixed(2)}`).join(' '),
  });
}
rows.sort((a, b) => a.set.localeCompare(b.set) || Number(a.conf) - Number(b.conf));
for (const r of rows) console.log(r.set, r.conf, r.hit ? 'HIT' : '', r.q, process.argv[3] ? r.f : '');

import { readFile, writeFile } from 'node:fs/promises';
import { evalCorpus } from '../bench/eval/corpora.ts';
import { gloveJsonPath, readGloveJson } from '../src/semantic/glove-json.ts';
import { vectorWords } from '../src/semantic/words.ts';
import { readdirSync } from 'node:fs';
const vocab = new Set<string>();
const add = (t: string) => { for (const w of vectorWords(t)) { vocab.add(w); for (const p of w.replace(/'s$/, '').split(/['-]/)) if (p) vocab.add(p); } };
for (const name of ['seed', 'full'] as const) {
  const c = await evalCorpus(name);
  for (const a of c.articles) { add(a.title); for (const p of a.passages) add(p.text); }
  console.error(name, vocab.size);
}
for (const f of readdirSync('bench/data/questions')) if (f.endsWith('.jsonl')) add(await readFile(`bench/data/questions/${f}`, 'utf8'));
add(await readFile('../shared/data/newsqa/questions.jsonl', 'utf8'));
console.error('vocab', vocab.size);
const words: string[] = []; const vecs: Float32Array[] = [];
await readGloveJson(gloveJsonPath(), (w) => vocab.has(w), (w, _r, v) => { words.push(w); vecs.push(v); });
const all = new Float32Array(words.length * 100); vecs.forEach((v, i) => all.set(v, i * 100));
await writeFile('/tmp/seed34/vectors.words', words.join('\n'));
await writeFile('/tmp/seed34/vectors.f32', Buffer.from(all.buffer));
console.error('kept', words.length);

import { loadCorpus } from '/work/wt/r10/src/corpus/load-corpus.ts';
import { Engine } from '/work/wt/r10/src/search/engine.ts';

const e = Engine.build(await loadCorpus('/work/wt/r10/corpus/'));
for (const q of [
  'how much did the migrant pay to cross?',
  'Did the mayor of Calais resign?',
  'What is the capital of Australia?',
  'Who won the World Cup in 2018?',
  'What is the weather in Calais today?',
  'How many people live in Dunkirk?',
  'When was the Eiffel Tower built?',
  'how do I bake bread',
]) {
  const r = e.answer(q).results;
  console.log(q, '=>', r.length, r[0]?.citation, r[0]?.quote.slice(0, 100));
}

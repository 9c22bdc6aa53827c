import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type WinkNlp from 'wink-nlp';
import { wordIndexOf } from './word-index.ts';

/** The language model `winkNLP(model, pipe)` takes. */
export type WinkModel = Parameters<typeof WinkNlp>[0];

const require = createRequire(import.meta.url);

/** `wink-eng-lite-web-model`'s own files: its loaders, and the models they read. */
function modelDir(): string {
  return path.dirname(require.resolve('wink-eng-lite-web-model'));
}

/**
 * `wink-eng-lite-web-model` (pinned: its files are read here) as wink-nlp loads it, for less than half
 * the CPU of its own loader: loading and reading one sentence took 75-130 ms of CPU against 170-257 ms
 * through the package's entry point (five runs each at a load average of 25; 0.14-0.19 s against
 * 0.35-0.44 s of wall time at a low load). Each CLI call and each index worker loads it once, and
 * through the package it costs more than a question costs the CLI, so the coupling to its file layout
 * is kept, guarded by the test below and the pinned version. The core
 * model it builds is the same object, checked against the package's own in
 * `test/text/english-model.test.ts`; what differs is how:
 * - the 3 MB core model is parsed once from its file, where the package requires it and then copies it
 *   by `JSON.parse(JSON.stringify(...))` (so that every load mutates a fresh copy);
 * - its packed lexicon is decoded by `Buffer`, not `atob` and a loop character by character;
 * - the index of its 87,593 words is a table acting as the object wink-nlp reads (`word-index.ts`);
 * - the sentiment model (400 KB, parsed twice) is an empty machine: wink-nlp reads it at every load,
 *   but runs it only for a pipe with `sentiment`, which `entities.ts` never asks for;
 * - the addons (stemmer, lemmatiser with 220 KB of WordNet exceptions, readability) are required when
 *   first called: nothing here asks for `its.stem`, `its.lemma` or `its.readabilityStats`.
 */
export function englishModel(): WinkModel & { core(): object } {
  const dir = modelDir();
  const own = (file: string): unknown => require(path.join(dir, file));
  const lazy =
    (file: string) =>
    (...args: unknown[]): unknown =>
      (own(file) as (...args: unknown[]) => unknown)(...args);
  const emptyMachine = JSON.stringify([100, 0, { 0: {} }, {}, {}, {}]);
  const addons = Object.assign(Object.create(null), {
    stem: lazy('porter-stemmer.js'),
    lemmatize: lazy('lemmatize.js'),
    readabilityStats: lazy('readability-stats.js'),
    wordVectors: undefined,
  });
  return Object.assign(Object.create(null), {
    core: () => coreModel(path.join(dir, 'languages', 'cur', 'models', 'eng-core-web-model.json')),
    sbd: own('load-sbd-model.js'),
    pos: own('load-pos-model.js'),
    ner: own('load-ner-model.js'),
    negation: own('load-negation-model.js'),
    sa: () => ({ machines: [emptyMachine], setter: own('sa-setter.js') }),
    metaCER: own('load-cer-meta-model.js'),
    featureFn: own('feature.js'),
    addons,
  }) as WinkModel & { core(): object };
}

/** The parsed core model's parts that loading fills in (the rest is passed on as parsed). */
interface CoreModel {
  lexicon: string | Uint32Array;
  xpansions: string | Uint32Array;
  packing: { layout: Record<string, number[]>; efList?: string[] };
  features: Record<string, FeatureData> & { lexeme: FeatureData; posClusters: { list: unknown[] } };
  pos: { hash: Record<string, number> };
}

interface FeatureData {
  list: string[];
  hash?: Record<string, number>;
  intrinsicSize?: number;
  index?: number;
  maxIndex?: number;
}

/** What the package's `read-core-model.js` and `load-core-model.js` make of the core model, in that order. */
function coreModel(file: string): CoreModel {
  const { model, lexicon } = parsedApartFromLexicon(readFileSync(file));
  const { packing, features, pos } = model;
  model.lexicon = uint32sOf(lexicon);
  model.xpansions = uint32sOf(model.xpansions as string);
  for (const name in packing.layout) {
    if (packing.layout[name]![3] === 0) features[name]!.hash = indexOf(features[name]!.list);
  }
  features.lexeme.hash = wordIndexOf(features.lexeme.list);
  const clusters = features.posClusters.list;
  for (let k = 0; k < clusters.length; k++) {
    clusters[k] = new Set((clusters[k] as string).split('_').map((tag) => pos.hash[tag] || 0));
  }
  packing.efList = [];
  for (const name in packing.layout) {
    const layout = packing.layout[name]!;
    if (layout[3] === 0) {
      const feature = features[name]!;
      feature.intrinsicSize = feature.list.length;
      feature.index = feature.list.length;
      feature.maxIndex = layout[1]! >>> layout[2]!;
    }
    if (layout[4] === 1) packing.efList.push(name);
  }
  features.lexeme.intrinsicSize = features.lexeme.list.length;
  features.lexeme.index = features.lexeme.list.length;
  return model;
}

const LEXICON_KEY = Buffer.from('"lexicon":"');

/**
 * The core model parsed, but for its packed lexicon (1.9 of its 3 MB, base64), taken from the file's
 * bytes as it is: so that the 87,593 words around it, some beyond Latin-1 (’, €, emoji), are decoded
 * into a string of 1.1 million characters at two bytes each instead of the whole file's 3 million (a
 * tenth of a second, and 8 MB of fresh memory, less). `"lexicon":"` cannot occur inside a JSON string
 * (its quotes would be escaped), the model has one such key, and base64 holds no quote: the lexicon ends
 * at the next one (the test comparing the result with the package's own model checks all this).
 */
function parsedApartFromLexicon(bytes: Buffer): { model: CoreModel; lexicon: string } {
  const at = bytes.indexOf(LEXICON_KEY);
  if (at < 0) {
    const model = JSON.parse(bytes.toString('utf8')) as CoreModel;
    return { model, lexicon: model.lexicon as string };
  }
  const from = at + LEXICON_KEY.byteLength;
  const to = bytes.indexOf(0x22, from);
  const model = JSON.parse(bytes.toString('utf8', 0, from) + bytes.toString('utf8', to)) as CoreModel;
  return { model, lexicon: bytes.toString('latin1', from, to) };
}

/** Each value's position in `list`, in an object without a prototype (wink-nlp reads `hash[word]`). */
function indexOf(list: readonly string[]): Record<string, number> {
  const hash: Record<string, number> = Object.create(null);
  for (let k = 0; k < list.length; k++) hash[list[k]!] = k;
  return hash;
}

/** Base64 as 32-bit words, in an ArrayBuffer of its own (a small `Buffer` is a slice of a shared pool). */
function uint32sOf(base64: string): Uint32Array {
  const bytes = Buffer.from(base64, 'base64');
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  return new Uint32Array(own.buffer);
}

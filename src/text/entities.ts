import { createRequire } from 'node:module';
import type { ItemEntity, ItemSentence, WinkMethods } from 'wink-nlp';
import { englishModel } from './english-model.ts';

/** Kinds of fact a passage can state, as questions ask for them. */
export type EntityKind = 'name' | 'date' | 'time' | 'duration' | 'money' | 'percent' | 'number' | 'ordinal';

/** A fact found in a text, with its offsets in that text. */
export interface Entity {
  kind: EntityKind;
  start: number;
  end: number;
  text: string;
}

const WINK_KINDS: Record<string, EntityKind> = {
  DATE: 'date',
  TIME: 'time',
  DURATION: 'duration',
  MONEY: 'money',
  PERCENT: 'percent',
  CARDINAL: 'number',
  ORDINAL: 'ordinal',
};
/** A number right after one of these, or right before a currency word, is a sum of money ("£7,000"). */
const CURRENCY_SIGN = /^[£$€¥]$/;
const CURRENCY_WORD = /^(?:pounds?|dollars?|dlrs|euros?|yen|francs?|marks?|pence|cents|rupees|stg)$/i;
const MAGNITUDE = /^(?:million|billion|trillion|mln|bln|bn|m)$/i;

let nlp: WinkMethods | undefined;

// Entity recognition costs about 0.2 ms a paragraph, too much for every passage of a large corpus at
// index time: it runs at question time on the few passages that reach the page, remembered.
const cache = new Map<string, Entity[]>();
const CACHE_LIMIT = 5000;

/**
 * The facts a text states: dates, times and durations ("between June and July", "for decades"), sums of
 * money ("£7,000", "7,000 pounds"), percentages ("5 per cent"), numbers, and names (runs of proper
 * nouns), by wink-nlp's English model.
 */
export function entitiesOf(text: string): Entity[] {
  let entities = cache.get(text);
  if (entities === undefined) {
    entities = recognise(text);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, entities);
  }
  return entities;
}

// The English model takes about a sixth of a second of CPU to load (`englishModel`): not for every
// command that imports the engine (a usage error), only for one that builds it (see `prepareEntities`).
function loadNlp(): WinkMethods {
  const require = createRequire(import.meta.url);
  const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default;
  return winkNLP(englishModel(), ['sbd', 'pos', 'ner']);
}

/** Whether `prepareEntities` loads the model up front (the bot) or leaves it to the first question (the CLI). */
let loadsAhead = true;

/**
 * For a process that answers a question or two and exits (the CLI): `prepareEntities` then leaves the
 * model to the first question that needs it, and one that does not never loads it.
 */
export function loadLanguageModelWhenNeeded(): void {
  loadsAhead = false;
}

/** Readies the language model (a second or so on a busy machine), so the first question does not wait for it. */
export function prepareEntities(): void {
  if (loadsAhead) entitiesOf('Ready on 1 May.');
}

function recognise(text: string): Entity[] {
  nlp ??= loadNlp();
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out(its.value);
  const spaces = doc.tokens().out(its.precedingSpaces);
  const pos = doc.tokens().out(its.pos);
  const offsets: [number, number][] = [];
  let at = 0;
  for (const [i, value] of values.entries()) {
    at += spaces[i]!.length;
    offsets.push([at, at + value.length]);
    at += value.length;
  }
  const entities: Entity[] = [];
  const inEntity = new Set<number>();
  const add = (kind: EntityKind, first: number, last: number) => {
    const start = offsets[first]![0];
    const end = offsets[last]![1];
    entities.push({ kind, start, end, text: text.slice(start, end) });
  };
  doc.entities().each((entity: ItemEntity) => {
    const [first, last] = entity.out(its.span) as unknown as [number, number];
    let kind = WINK_KINDS[entity.out(its.type) as string];
    if (kind === undefined) return;
    for (let i = first; i <= last; i++) inEntity.add(i);
    if (kind === 'number') {
      let end = last;
      while (MAGNITUDE.test(values[end + 1] ?? '')) end++;
      if (CURRENCY_SIGN.test(values[first - 1] ?? '') || CURRENCY_WORD.test(values[end + 1] ?? '')) {
        kind = 'money';
        add(
          kind,
          CURRENCY_SIGN.test(values[first - 1] ?? '') ? first - 1 : first,
          end + (CURRENCY_WORD.test(values[end + 1] ?? '') ? 1 : 0),
        );
        return;
      }
    }
    add(kind, first, last);
  });
  // Names: runs of proper nouns outside the entities above ("Franck Dhersin", "Arsene Wenger").
  const sentenceStarts = new Set<number>();
  doc.sentences().each((sentence: ItemSentence) => {
    sentenceStarts.add((sentence.out(its.span) as unknown as [number, number])[0]);
  });
  for (let i = 0; i < values.length; i++) {
    if (pos[i] !== 'PROPN' || inEntity.has(i)) continue;
    let last = i;
    while (pos[last + 1] === 'PROPN' && !inEntity.has(last + 1)) last++;
    // A lone capitalised word opening a sentence is often no name at all ("Deaths rose").
    if (last > i || !sentenceStarts.has(i)) add('name', i, last);
    i = last;
  }
  return entities.sort((a, b) => a.start - b.start);
}

/** Parts of speech that name what a question is about: nouns, proper nouns and numbers. */
const FOCUS_POS = new Set(['NOUN', 'PROPN', 'NUM']);

/**
 * The words a question is about ("What causes the seasons on Earth?" → seasons, Earth): its nouns,
 * proper nouns and numbers by wink-nlp's tagger. A passage that lacks them answers some other
 * question, however many of its verbs ("causes", "won", "pay") it shares.
 */
export function focusWords(question: string): string[] {
  nlp ??= loadNlp();
  const its = nlp.its;
  const tokens = nlp.readDoc(question).tokens();
  const values = tokens.out(its.value);
  const pos = tokens.out(its.pos);
  return values.filter((_, i) => FOCUS_POS.has(pos[i]!));
}

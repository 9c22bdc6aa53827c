import { type Entity, type EntityKind, entitiesOf } from '../text/entities.ts';

/** What kind of fact a question asks for, read from its wording. */
export type AnswerType = 'person' | 'money' | 'quantity' | 'time' | 'place' | 'other';

// "How much did the migrant pay?" asks for a sum of money, not for any number in the story.
const MONEY_QUESTION =
  /\b(?:how much|what (?:amount|price|sum|fee|fare))\b.*\b(?:pay|paid|pays|cost|costs|spen[dt]|spends|charg\w*|price|fees?|fares?|money|worth|earn\w*|rais\w*|fund\w*|budget|salary|wages?|bribe|ransom|dollars|pounds|euros)\b|\b(?:how much|what) (?:money|did .* (?:pay|cost|spend))/;

/** Reads the answer type from the question's opening words ("who", "how much", "when", "where"). */
export function answerTypeOf(question: string): AnswerType {
  const q = question.toLowerCase();
  if (MONEY_QUESTION.test(q)) return 'money';
  if (/\bwhat (?:is|was|are|were) (?:the|his|her|their) names?\b/.test(q)) return 'person';
  if (
    /\b(?:how (?:much|many|long|far|old|big|large|often)|what (?:amount|number|percentage|price|sum|age)|cost)\b/.test(
      q,
    )
  ) {
    return 'quantity';
  }
  // A name is wanted by "who", and by "which team" or "what company" alike.
  if (
    /\b(?:who|whom|whose)\b/.test(q) ||
    /\b(?:which|what) (?:team|club|company|firm|group|party|organi[sz]ation|agency|network|newspaper|band|airline|bank|brand)\b/.test(
      q,
    )
  ) {
    return 'person';
  }
  if (/\b(?:when|what (?:year|day|date|time|month))\b/.test(q)) return 'time';
  if (/\b(?:where|whereabouts|what (?:country|city|town|place))\b/.test(q)) return 'place';
  return 'other';
}

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec';
const TIME = new RegExp(
  `\\b(?:(?:between|from) (?:${MONTHS}) (?:and|to|until) (?:${MONTHS})|(?:${MONTHS})\\.?\\s+\\d|\\d{1,2}\\s+(?:${MONTHS})|(?:in|since|until|by|from)\\s+(?:${MONTHS}|\\d{4})|\\d{4}\\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|today|tomorrow|last (?:week|month|year|night)|\\d{1,2}(?::\\d{2})?\\s*[ap]\\.?m\\b)`,
  'i',
);
const QUANTITY =
  /(?:[$£€¥]\s?\d|\d[\d,.]*\s*(?:%|percent|per cent|million|billion|thousand|mln|bn|m\b|k\b|dollars|pounds|euros|dlrs|people|years?|times)|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|forty|fifty|hundreds?|thousands?|millions?|dozens?)\b|\b\d[\d,.]*\b|\bfor (?:years|decades|months|weeks|days|hours|centuries|generations)\b)/i;
// Two capitalised words in a row ("Franck Dhersin") or a title and a name ("Mr Dershin").
const PERSON =
  /(?:\b(?:Mr|Mrs|Ms|Dr|President|Mayor|Minister|Sen|Gov|Prof)\.?\s+\p{Lu}|\p{Lu}[\p{Ll}'’-]+\s+\p{Lu}[\p{Ll}'’-]+)/u;
const PLACE = /\b(?:in|at|from|near|to)\s+(?:the\s+)?\p{Lu}[\p{Ll}-]+/u;

const MONEY =
  /(?:[$£€¥]\s?\d|\d[\d,.]*\s*(?:million|billion|mln|bn|m\b|k\b)?\s*(?:dollars|pounds|euros|dlrs|cents|pence|yen|francs|rupees)|\b(?:dollars|pounds|euros)\b)/i;

const PATTERNS: Record<Exclude<AnswerType, 'other'>, RegExp> = {
  money: new RegExp(MONEY.source, 'gi'),
  person: new RegExp(PERSON.source, 'gu'),
  quantity: new RegExp(QUANTITY.source, 'gi'),
  time: new RegExp(TIME.source, 'gi'),
  place: new RegExp(PLACE.source, 'gu'),
};

/**
 * Whether a piece of text contains something of the kind the question asks for that the question does
 * not already say: for "who threatened the mayor?", a name other than the mayor's.
 * `isKnown` tells whether a mention is made only of words from the question.
 */
export function mentionsAnswerType(
  text: string,
  type: AnswerType,
  isKnown: (mention: string) => boolean = () => false,
): boolean {
  if (type === 'other') return false;
  for (const match of text.matchAll(PATTERNS[type])) {
    if (!isKnown(match[0])) return true;
  }
  return false;
}

/** The kinds of entity that answer each type of question ("how long": a duration or a number). */
const ANSWERING_KINDS: Record<AnswerType, readonly EntityKind[]> = {
  person: ['name'],
  place: ['name'],
  time: ['date', 'time', 'duration'],
  money: ['money'],
  quantity: ['number', 'money', 'percent', 'duration', 'ordinal'],
  other: [],
};

/**
 * The facts in a text that could answer a question of this type and that the question does not already
 * state, by language analysis (wink-nlp): costlier than `mentionsAnswerType`, so for the few passages
 * that reach the page.
 */
export function answeringEntities(
  text: string,
  type: AnswerType,
  isKnown: (mention: string) => boolean = () => false,
): Entity[] {
  const kinds = ANSWERING_KINDS[type];
  if (kinds.length === 0) return [];
  return entitiesOf(text).filter((entity) => kinds.includes(entity.kind) && !isKnown(entity.text));
}

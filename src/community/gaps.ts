import { analyze, tokenize } from '../search/analyze.ts';
import type { UnansweredQuestion } from './community-store.ts';

/** Questions without coverage that are about the same thing. */
export interface GapGroup {
  /** The distinctive terms the group's questions share (analysed: folded and stemmed). */
  terms: string[];
  /** Those terms as the representative question words them ("reopening" for `reopen`), for people. */
  words: string[];
  /** How many times its questions were asked. */
  count: number;
  /** The question of the group asked most often (the earliest of those tied). */
  representative: string;
  /** Distinct wordings, most asked first. */
  wordings: { question: string; count: number }[];
  firstAsked: Date;
  lastAsked: Date;
  /** When each of its questions was asked, oldest first (`/gaps`'s chart counts them per week). */
  askedAt: Date[];
}

/**
 * Words that say a question is a question, or about news in general, and so say nothing about what it
 * is about (stop words are already gone after `analyze`). Analysed like the questions' terms.
 */
const GENERIC = new Set(
  analyze(
    'news latest update updates happen happened happening today yesterday anything something tell know ' +
      'said say says report reported story stories article articles info information think thing things ' +
      'please hi hello anyone someone why how what when where who',
  ),
);

/**
 * A question joins a group when at least this share of the smaller of its and the group's distinctive
 * terms are shared: "bridge reopen" and "bridge reopen date" group, "mayor gun Teteghem" and "mayor
 * border Calais" do not.
 */
const OVERLAP = 2 / 3;

/**
 * Groups questions by what they are about. Each distinct wording (case and spacing ignored) is taken
 * in order of how often it was asked (the more specific first among equals); it joins the first group whose terms it shares enough of, or
 * starts one. A group's terms are those of the wording that started it, so a chain of loosely related
 * questions cannot drag unrelated ones together. Groups come most asked first.
 */
export function groupQuestions(questions: readonly UnansweredQuestion[]): GapGroup[] {
  const wordings = new Map<string, { question: string; times: Date[] }>();
  for (const asked of questions) {
    const key = asked.question.replace(/\s+/g, ' ').trim().toLowerCase();
    if (key === '') continue;
    const entry = wordings.get(key) ?? { question: asked.question.replace(/\s+/g, ' ').trim(), times: [] };
    entry.times.push(asked.askedAt);
    wordings.set(key, entry);
  }
  // Among wordings asked as often, the more specific starts a group: "strike?" joins "train strike
  // dates" rather than gathering every strike into one group.
  const ordered = [...wordings.values()]
    .map((wording) => ({ ...wording, terms: distinctiveTerms(wording.question) }))
    .sort(
      (a, b) =>
        b.times.length - a.times.length ||
        b.terms.size - a.terms.size ||
        earliest(a.times) - earliest(b.times),
    );
  const groups: { terms: Set<string>; members: { question: string; times: Date[] }[] }[] = [];
  for (const wording of ordered) {
    const terms = wording.terms;
    const home = groups.find((group) => overlaps(terms, group.terms));
    if (home) home.members.push(wording);
    else groups.push({ terms, members: [wording] });
  }
  return groups
    .map((group) => {
      const times = group.members.flatMap((member) => member.times);
      const representative = group.members[0]?.question ?? '';
      return {
        terms: [...group.terms],
        words: wordsFor(representative, group.terms),
        count: times.length,
        representative,
        wordings: group.members.map((member) => ({ question: member.question, count: member.times.length })),
        firstAsked: new Date(earliest(times)),
        lastAsked: new Date(Math.max(...times.map((time) => time.getTime()))),
        askedAt: [...times].sort((a, b) => a.getTime() - b.getTime()),
      };
    })
    .sort((a, b) => b.count - a.count || b.lastAsked.getTime() - a.lastAsked.getTime());
}

/** The question's analysed terms minus generic ones; all of them if nothing else is left. */
export function distinctiveTerms(question: string): Set<string> {
  const all = new Set(analyze(question));
  const distinctive = new Set([...all].filter((term) => !GENERIC.has(term) && term.length > 1));
  return distinctive.size > 0 ? distinctive : all;
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return a.size === b.size;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared > 0 && shared / Math.min(a.size, b.size) >= OVERLAP;
}

function earliest(times: readonly Date[]): number {
  return Math.min(...times.map((time) => time.getTime()));
}

/** The words of `text` that analyse to one of `terms`, lower case, once each, in order. */
function wordsFor(text: string, terms: ReadonlySet<string>): string[] {
  const words = tokenize(text)
    .filter((token) => terms.has(token.term))
    .map((token) => text.slice(token.start, token.end).toLowerCase());
  return [...new Set(words)];
}

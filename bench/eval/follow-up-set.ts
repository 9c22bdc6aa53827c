import { readJsonLines } from './jsonl-records.ts';
import type { Half } from './question-set.ts';

/**
 * One pair of issue 32's follow-up set: a member asks `first` (answered by `article`), then
 * `followUp`, which asks about the same story without naming it ("how many were hurt?", "what did he
 * say about it"). `answer` is the follow-up's answer, verbatim in one passage of `article`.
 */
export interface FollowUpRecord {
  id: string;
  first: string;
  followUp: string;
  article: string;
  answer: string;
  half: Half;
  /** How the follow-up refers back (pronoun, bare question, ellipsis), for people reading the set. */
  note?: string;
}

export function followUpSetPath(): string {
  return new URL('../data/questions/follow-ups.jsonl', import.meta.url).pathname;
}

/** Reads the follow-up set; a line that is not one `FollowUpRecord` is reported with its number. */
export function loadFollowUpSet(path: string = followUpSetPath()): Promise<FollowUpRecord[]> {
  return readJsonLines(
    path,
    asFollowUpRecord,
    '{id, first, followUp, article, answer, half: "tune" | "test"}, every one of them text',
  );
}

function asFollowUpRecord(value: unknown): FollowUpRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, first, followUp, article, answer, half, note } = value as Record<string, unknown>;
  if (
    typeof id !== 'string' ||
    typeof first !== 'string' ||
    typeof followUp !== 'string' ||
    typeof article !== 'string' ||
    typeof answer !== 'string'
  ) {
    return null;
  }
  if ([id, first, followUp, article, answer].some((text) => text.trim() === '')) return null;
  if (half !== 'tune' && half !== 'test') return null;
  if (note !== undefined && typeof note !== 'string') return null;
  return {
    id,
    first,
    followUp,
    article,
    answer,
    half,
    ...(note === undefined ? {} : { note }),
  };
}

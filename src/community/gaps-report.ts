import type { UnhelpfulAnswer } from './community-store.ts';
import { type GapGroup, groupQuestions } from './gaps.ts';
import type { RecordStore } from './record-store.ts';

/** What the coverage lacks, over a period: `/gaps` and `npm run gaps` show the same report. */
export interface GapsReport {
  days: number;
  from: Date;
  to: Date;
  /** False under RECORD_QUESTIONS=false: no question text, so no groups. */
  questionsRecorded: boolean;
  /** Questions without coverage asked in the period (with text). */
  unanswered: number;
  groups: GapGroup[];
  /** Answers voted not helpful in the period, most not-helpful first. */
  unhelpful: UnhelpfulAnswer[];
}

/** Answers voted not helpful listed at most. */
const UNHELPFUL_LIMIT = 50;

/**
 * The report over the last `days`: for one guild (what `/gaps` shows its moderators: never another
 * server's questions), or for every guild (the operator's `npm run gaps`).
 */
export async function buildGapsReport(
  community: Pick<RecordStore, 'records' | 'recordQuestions'>,
  options: { now: Date; days: number; guildId?: string },
): Promise<GapsReport> {
  const from = new Date(options.now.getTime() - options.days * 24 * 60 * 60 * 1000);
  const questions = await community.records.unansweredSince(from, options.guildId);
  return {
    days: options.days,
    from,
    to: options.now,
    questionsRecorded: community.recordQuestions,
    unanswered: questions.length,
    groups: groupQuestions(questions),
    unhelpful: await community.records.unhelpfulSince(from, UNHELPFUL_LIMIT, options.guildId),
  };
}

/** The report as plain text, for operators at a terminal. */
export function gapsReportText(report: GapsReport): string {
  const day = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    `Coverage gaps, last ${report.days} days (${day(report.from)} to ${day(report.to)} UTC)`,
    '',
    `Questions without coverage: ${report.unanswered} asked, in ${report.groups.length} groups`,
  ];
  if (!report.questionsRecorded) lines.push('  (RECORD_QUESTIONS=false: question text is not stored)');
  report.groups.forEach((group, index) => {
    lines.push(
      `${String(index + 1).padStart(3)}. ${group.count}x  "${group.representative}"`,
      `      about: ${group.words.join(', ')} · ${group.wordings.length} wording(s) · first ${day(group.firstAsked)} · last ${day(group.lastAsked)}`,
    );
    for (const wording of group.wordings.slice(1, 4))
      lines.push(`      also: "${wording.question}" (${wording.count}x)`);
  });
  lines.push('', `Answers voted not helpful: ${report.unhelpful.length}`);
  report.unhelpful.forEach((entry, index) => {
    lines.push(
      `${String(index + 1).padStart(3)}. ${entry.notHelpful} not helpful, ${entry.helpful} helpful  "${entry.answer.question ?? '(question not recorded)'}"`,
      `      cited: ${entry.answer.citations.join(', ') || '(none recorded)'} · answered ${day(entry.answer.answeredAt)} · corpus ${entry.answer.corpusVersion.slice(0, 12)}`,
    );
  });
  return lines.join('\n');
}

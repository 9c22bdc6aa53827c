import { type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import type { GapsReport } from '../../community/gaps-report.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { fitText } from './truncate.ts';

/** Entries (groups, then answers voted not helpful) per page of `/gaps`. */
const PER_PAGE = 8;

/** `gaps:page:<page>:<days>`: another page of the same report, recomputed (nothing kept in memory). */
export const gapsPageId = (page: number, days: number) => `gaps:page:${page}:${days}`;

/**
 * One page of `/gaps`: the groups of questions without coverage (count, a representative question,
 * what they are about, first and last asked), then the answers most often voted not helpful with their
 * citations. Previous / Next when there is more than one page.
 */
export function renderGapsPage(report: GapsReport, page: number): ReplyPayload {
  const entries = [
    ...report.groups.map((group, index) => {
      const first = seconds(group.firstAsked);
      const last = seconds(group.lastAsked);
      const also = group.wordings.length > 1 ? ` · ${group.wordings.length} wordings` : '';
      return {
        section: 'groups' as const,
        text:
          `**${index + 1}.** ${group.count}× “${fitText(group.representative, 200, { render: escapeText })}”\n` +
          `   about *${escapeText(group.words.join(', ') || group.terms.join(', '))}*${also} · first <t:${first}:d>, last <t:${last}:R>`,
      };
    }),
    ...report.unhelpful.map((entry, index) => {
      const question = entry.answer.question
        ? `“${fitText(entry.answer.question, 200, { render: escapeText })}”`
        : '*(question not recorded)*';
      const cited = entry.answer.citations.slice(0, 3).map(code).join(', ') || '*(no citation recorded)*';
      return {
        section: 'unhelpful' as const,
        text: `**${index + 1}.** ${entry.notHelpful} not helpful, ${entry.helpful} helpful: ${question}\n   cited ${cited} · answered <t:${seconds(entry.answer.answeredAt)}:d>`,
      };
    }),
  ];
  const pages = Math.max(1, Math.ceil(entries.length / PER_PAGE));
  const at = Math.min(Math.max(0, page), pages - 1);
  const shown = entries.slice(at * PER_PAGE, (at + 1) * PER_PAGE);
  const lines: string[] = [];
  for (const [index, entry] of shown.entries()) {
    if (index === 0 || shown[index - 1]?.section !== entry.section) {
      lines.push(
        entry.section === 'groups'
          ? `**Questions without coverage** (${report.unanswered} asked)`
          : '**Answers voted not helpful**',
      );
    }
    lines.push(entry.text);
  }
  if (entries.length === 0) {
    lines.push(
      report.questionsRecorded
        ? 'Nothing to report: every question in this period found coverage, and no answer was voted not helpful.'
        : 'Nothing to report. Question text is not recorded here (RECORD_QUESTIONS=false); only votes would show.',
    );
  }
  const buttons: APIButtonComponent[] = [
    navButton('Previous', gapsPageId(at - 1, report.days), at === 0),
    navButton('Next', gapsPageId(at + 1, report.days), at >= pages - 1),
  ];
  return {
    embeds: [
      {
        title: `Coverage gaps, last ${report.days} days`,
        description: fitText(lines.join('\n'), Limits.embedDescription),
        color: 0x99aab5,
        footer: {
          text: `Page ${at + 1} of ${pages} · questions grouped by the distinctive words they share${report.questionsRecorded ? '' : ' · question text not recorded'}`,
        },
      },
    ],
    components: pages > 1 ? [{ type: ComponentType.ActionRow, components: buttons }] : [],
  };
}

function navButton(label: string, customId: string, disabled: boolean): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Secondary, label, custom_id: customId, disabled };
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

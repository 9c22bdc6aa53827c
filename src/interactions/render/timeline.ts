import type { APIEmbed } from 'discord.js';
import { PUBLISHER_UNKNOWN } from '../../corpus/citation.ts';
import { dateLabel } from '../../corpus/published-date.ts';
import type { Timeline, TimelineEntry } from '../../search/answer.ts';
import type { Period } from '../../search/period.ts';
import type { ReplyPayload } from '../incoming.ts';
import { boldHighlights, collapseWhitespace, periodClause } from './answer.ts';
import { code } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { customIds, timelineFooter } from './query-state.ts';
import { pageButtons } from './sources.ts';
import { fitText } from './truncate.ts';

/** Articles per page of a timeline: ten lines of quotes stay well inside an embed's 4,096 characters. */
export const TIMELINE_PER_PAGE = 8;
const TIMELINE_COLOUR = 0x5865f2;
/** Characters of one line's quote; the rest of the line (date, outlet, citation) is short. */
const QUOTE_CHARS = 260;

/** The period a timeline was limited to, as written (`/timeline since:` / `until:`). */
export type TimelineView = Period;

/**
 * One page (0-based) of a topic's timeline: one line per article (date, outlet, quote, citation), the
 * first report marked, then the undated articles under their own heading; Previous / Next buttons.
 */
export function renderTimeline(timeline: Timeline, page: number, view: TimelineView = {}): ReplyPayload {
  const topic = fitText(timeline.topic.replace(/\s+/g, ' ').trim(), 200, { render: escapeText });
  const entries = [...timeline.dated, ...timeline.undated];
  if (entries.length === 0) {
    return {
      content: `**No coverage found** for “${topic}”${periodClause(view)}: no article matches it, so there is no timeline.`,
    };
  }
  const pages = Math.ceil(entries.length / TIMELINE_PER_PAGE);
  const current = Math.min(Math.max(0, page), pages - 1);
  const first = current * TIMELINE_PER_PAGE;
  const lines: string[] = [];
  for (const [index, entry] of entries.slice(first, first + TIMELINE_PER_PAGE).entries()) {
    const at = first + index;
    if (at === timeline.dated.length) lines.push('**Undated** (when these appeared is not known):');
    lines.push(entryLine(entry, at === 0 && timeline.dated.length > 0));
  }
  const counts = `${timeline.dated.length} dated article${timeline.dated.length === 1 ? '' : 's'}${
    timeline.undated.length > 0 ? `, ${timeline.undated.length} undated` : ''
  }`;
  const embed: APIEmbed = {
    title: fitText(`Timeline: ${timeline.topic.replace(/\s+/g, ' ').trim()}`, Limits.embedTitle, {
      render: escapeText,
    }),
    color: TIMELINE_COLOUR,
    description: fitText(lines.join('\n'), Limits.embedDescription),
    footer: {
      text: fitText(
        timelineFooter(
          { topic: timeline.topic, ...view },
          `Page ${current + 1} of ${pages} · ${counts}, oldest first`,
        ),
        Limits.footerText,
      ),
    },
  };
  return {
    content: `Coverage of “${topic}”${periodClause(view)} in date order:`,
    embeds: [embed],
    components: pageButtons(current, pages, customIds.timelinePage),
  };
}

/** `**2003-03-10** · Harbour Gazette · “Dock workers …” · cite \`dock-strike-begins#1\` · **first report**`. */
function entryLine(entry: TimelineEntry, firstReport: boolean): string {
  const single = collapseWhitespace(entry.quote, entry.highlights);
  const quote = fitText(single.text, QUOTE_CHARS, {
    render: (part) => boldHighlights(part, single.highlights),
  });
  const outlet = escapeText(fitText(entry.publisher ?? PUBLISHER_UNKNOWN, 60));
  const date = entry.published === null ? '' : `**${escapeText(dateLabel(entry.published))}** · `;
  return `${date}${outlet} · “${quote}” · cite ${code(fitText(entry.citation, 120))}${firstReport ? ' · **first report**' : ''}`;
}

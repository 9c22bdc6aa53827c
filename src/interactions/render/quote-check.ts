import type { APIEmbed } from 'discord.js';
import { citationLine } from '../../corpus/citation.ts';
import type { DiffPart, QuoteCheck } from '../../factcheck/check-quote.ts';
import type { Verdict } from '../../factcheck/verdict.ts';
import type { ReplyPayload } from '../incoming.ts';
import { DISCORD_CITATION, isWebUrl } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { fitText } from './truncate.ts';

const COLOURS: Record<Verdict, number> = {
  verbatim: 0x57f287,
  close: 0xfee75c,
  altered: 0xed4245,
  'not-found': 0x99aab5,
};
const HEADLINES: Record<Verdict, string> = {
  verbatim: '**Verbatim**: the coverage carries these exact words.',
  close: '**Close**: the coverage says this, with a few small words or word forms different.',
  altered:
    '**Altered**: the closest passage in the coverage says something different; the words that differ are marked.',
  'not-found': '**Not found**: no passage in the coverage carries these words.',
};
/** The diff gets at most this much of the embed, so the citation lines always fit after it. */
const DIFF_BUDGET = 2400;

/**
 * A quote check as a Discord reply: the verdict in the content, and an embed with the word diff (words
 * only in the member's version underlined, words only in the coverage struck through), the speaker, the
 * citation and the earliest dated article carrying the words.
 */
export function renderQuoteCheck(check: QuoteCheck): ReplyPayload {
  const quote = fitText(check.quote, 300, { render: escapeText });
  if (check.verdict === 'not-found' || check.source === null) {
    return {
      content: `${HEADLINES['not-found']}\n> ${quote}\nIt may be worded very differently, or not be in the archive at all.`,
    };
  }
  const { source } = check;
  const differs = check.diff.some((part) => part.op !== 'same');
  const lines = [
    `> ${renderDiff(check.diff, DIFF_BUDGET)}`,
    ...(differs ? ['__underlined__: only in the quote · ~~struck~~: only in the coverage'] : []),
    ...(check.speaker ? [`Speaker: ${escapeText(check.speaker)}`] : []),
    citationLine(source.article, DISCORD_CITATION, { title: false, citation: source.citation }),
  ];
  if (check.earliest && check.earliest.citation !== source.citation)
    lines.push(
      `Earliest with these words: ${citationLine(check.earliest.article, DISCORD_CITATION, { citation: check.earliest.citation })}`,
    );
  const embed: APIEmbed = {
    color: COLOURS[check.verdict],
    title: fitText(source.article.title, Limits.embedTitle, { render: escapeText }),
    description: lines.join('\n'),
  };
  if (source.article.url && isWebUrl(source.article.url)) embed.url = source.article.url;
  return { content: HEADLINES[check.verdict], embeds: [embed] };
}

/**
 * The diff as one line of markdown within `budget` characters: each run escaped, added runs underlined,
 * dropped runs struck through, never cut inside a marker (a changed run that does not fit is left out,
 * an unchanged one is cut at a word, and an ellipsis says so).
 */
export function renderDiff(parts: readonly DiffPart[], budget: number): string {
  let out = '';
  for (const part of parts) {
    const text = escapeText(part.text.replace(/\s+/g, ' ').trim());
    const piece = part.op === 'same' ? text : part.op === 'added' ? `__${text}__` : `~~${text}~~`;
    const next = out === '' ? piece : `${out} ${piece}`;
    if (next.length > budget - 2) {
      if (part.op === 'same')
        out += ` ${fitText(part.text, Math.max(0, budget - out.length - 3), { render: escapeText, note: '' })}`;
      return `${out.trimEnd()} …`;
    }
    out = next;
  }
  return out;
}

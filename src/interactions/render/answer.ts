import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Article } from '../../corpus/article.ts';
import { dateLabel } from '../../corpus/published-date.ts';
import { type Disagreement, formatValues } from '../../factcheck/outlets-differ.ts';
import type { Answer, AnswerResult, Highlight, ReportRef } from '../../search/answer.ts';
import { describeTime } from '../../search/time-layer.ts';
import type { ReplyPayload } from '../incoming.ts';
import { citationLine, code, isWebUrl } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { customIds, queryFooter } from './query-state.ts';
import { fitText } from './truncate.ts';

/** How an answer was asked for, to label it and to build its "More results" button. */
export interface AnswerRequest {
  question: string;
  limit: number;
  offset: number;
  /** The article the answer was limited to (`/ask source:`), if any. */
  source: Article | null;
  /** The publication period the answer was limited to, as written (`/ask since:` / `until:`). */
  since?: string;
  until?: string;
  /** The outlets the answer was limited to (a channel's, or `/ask source:` naming one); empty: all. */
  outlets?: readonly string[];
  /**
   * What the answer is called in its first line.
   * @default 'your question'
   */
  subject?: string;
  /** Where the outlets grouped with a result disagree, by the result's citation. */
  disagreements?: ReadonlyMap<string, readonly Disagreement[]>;
}

/** Embed colour of answers (Discord's blurple), so they are recognisable in a busy channel. */
const ANSWER_COLOUR = 0x5865f2;
const NO_COVERAGE_COLOUR = 0x99aab5;
/** Leaves room in the 6,000-character total for five results with titles, citations and the footer. */
const QUOTE_BUDGET = 850;

/**
 * An answer as a Discord reply: one embed per passage, each a quote with the question's terms in bold
 * and a citation line; buttons for the context of each result and for the next page.
 */
export function renderAnswer(answer: Answer, request: AnswerRequest): ReplyPayload {
  const from = request.offset + 1;
  const to = request.offset + answer.results.length;
  const footer = queryFooter(
    {
      question: request.question,
      source: request.source?.id ?? null,
      ...(request.since ? { since: request.since } : {}),
      ...(request.until ? { until: request.until } : {}),
      ...(request.outlets?.length ? { outlets: request.outlets } : {}),
    },
    `Results ${from}–${to}${answer.hasMore ? ' · more available' : ''}`,
  );
  const titles = answer.results.map((result, index) => {
    const rank = `${from + index}. `;
    return rank + fitText(result.title, Limits.embedTitle - rank.length, { render: escapeText });
  });
  // Share what the 6,000-character total leaves after titles and the footer between the quotes.
  const spare = Limits.embedTotal - 100 - Math.min(footer.length, Limits.footerText) - titles.join('').length;
  const perResult = Math.min(2000, Math.floor(spare / Math.max(1, answer.results.length)));
  const embeds = answer.results.map((result, index) =>
    resultEmbed(result, titles[index]!, perResult, request.disagreements?.get(result.citation) ?? []),
  );
  const last = embeds.at(-1);
  if (last) last.footer = { text: footer };
  const count =
    answer.results.length === 1 ? 'One passage answers' : `${answer.results.length} passages answer`;
  const scope = request.source ? ` in *${fitText(request.source.title, 300, { render: escapeText })}*` : '';
  return {
    content: `${timeNote(answer)}${count} ${request.subject ?? 'your question'}${scope}${periodScope(request)}:`,
    embeds,
    components: answerButtons(answer, request),
  };
}

/** "No coverage found", with the closest headlines so the user can rephrase or look further. */
export function renderNoCoverage(
  question: string,
  closest: readonly Article[],
  source: Article | null,
  period: { since?: string; until?: string; outlets?: readonly string[] } = {},
  namedPeriod?: string,
): ReplyPayload {
  const shown = fitText(question.replace(/\s+/g, ' ').trim(), 300, { render: escapeText });
  const scope = `${source ? ` in *${fitText(source.title, 200, { render: escapeText })}*` : ''}${periodScope(period)}`;
  const embeds: APIEmbed[] =
    closest.length === 0
      ? []
      : [
          {
            title: 'Closest headlines',
            color: NO_COVERAGE_COLOUR,
            description: closest
              .slice(0, 5)
              .map(
                (article) =>
                  `• ${fitText(article.title, 200, { render: escapeText })} (${escapeText(dateLabel(article.published))}) — ${code(article.id)}`,
              )
              .join('\n'),
            footer: { text: 'None of these answers the question; try other words, or /sources to browse.' },
          },
        ];
  return {
    content: `**No coverage found**${scope} for “${shown}”. Nothing in the archive${namedPeriod ? ` from ${escapeText(namedPeriod)}` : ''} answers it, and a guess would be worse than no answer.`,
    embeds,
  };
}

/** What the question's time words did, as a first line of its own. */
function timeNote(answer: Answer): string {
  const note = describeTime(answer.time);
  return note ? `${escapeText(note)}\n` : '';
}

/** "First reported by Wire (1987-02-26) · latest: Coastal Courier (2015-08-31)". */
function reportedLine(reported: NonNullable<AnswerResult['reported']>): string {
  const one = (ref: ReportRef) =>
    `${escapeText(ref.publisher ?? 'publisher unknown')} (${escapeText(dateLabel(ref.published))}, ${code(ref.citation)})`;
  return `First reported by ${one(reported.earliest)} · latest: ${one(reported.latest)}`;
}

/**
 * The outlets and period an answer was limited to, in words: ` from Wire`, ` among articles published
 * from 2003 to 2004`, both, or nothing.
 */
function periodScope({
  since,
  until,
  outlets,
}: {
  since?: string;
  until?: string;
  outlets?: readonly string[];
}): string {
  const words = [since ? `from ${since}` : '', until ? `${since ? 'to' : 'until'} ${until}` : '']
    .filter(Boolean)
    .join(' ');
  const from = outlets?.length ? ` from ${fitText(outlets.join(', '), 300, { render: escapeText })}` : '';
  return `${from}${words ? ` among articles published ${escapeText(words)}` : ''}`;
}

function resultEmbed(
  result: AnswerResult,
  title: string,
  budget: number,
  disagreements: readonly Disagreement[],
): APIEmbed {
  const differ = disagreements.map((d) => `\n${outletsDifferLine(d)}`).join('');
  const also =
    result.alsoReportedBy.length > 0
      ? `\nAlso reported by: ${result.alsoReportedBy.slice(0, 3).map(code).join(', ')}${result.alsoReportedBy.length > 3 ? ' and others' : ''}`
      : '';
  const reported = result.reported ? `\n${reportedLine(result.reported)}` : '';
  const cite = `\n${citationLine(result, result.citation, { title: false })}${differ}${also}${reported}`;
  const note = ` … *(cut; \`/cite ${result.citation}\` shows it all)*`;
  // One line, so the block quote holds all of it; highlight offsets follow the collapsed text.
  const single = collapseWhitespace(result.quote, result.highlights);
  const quote = fitText(single.text, Math.max(40, Math.min(QUOTE_BUDGET, budget - cite.length - 2)), {
    render: (part) => highlight(part, single.highlights),
    note: note.length < 200 ? note : ' …',
  });
  const embed: APIEmbed = {
    color: ANSWER_COLOUR,
    title,
    description: fitText(`> ${quote}${cite}`, Math.max(100, budget)),
  };
  if (result.url && isWebUrl(result.url)) embed.url = result.url;
  return embed;
}

/** "**Outlets differ** on a number: 18,000 (The Telegraph `t#1`) · 20,000 (BBC `b#1`)". */
export function outletsDifferLine(disagreement: Disagreement): string {
  const values = formatValues(
    disagreement.values.map((v) => ({ ...v, value: escapeText(v.value), outlet: escapeText(v.outlet) })),
    code,
  );
  return `**Outlets differ** on ${disagreement.kind === 'date' ? 'a date' : `a ${disagreement.kind}`}: ${values}`;
}

/**
 * The quote, escaped, with each highlighted span in bold. Spans are clipped to the text given (the
 * quote may have been cut) and merged where they touch.
 */
export function highlight(text: string, highlights: readonly Highlight[]): string {
  const spans: Highlight[] = [];
  for (const span of highlights
    .map(({ start, end }) => ({ start: Math.max(0, start), end: Math.min(text.length, end) }))
    .filter(({ start, end }) => end > start)
    .sort((a, b) => a.start - b.start)) {
    const last = spans.at(-1);
    // Touching or overlapping spans become one, or the markers would run into each other (`****`).
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else spans.push({ ...span });
  }
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += escapeText(text.slice(at, span.start));
    const marked = text.slice(span.start, span.end);
    // Bold needs no leading or trailing space inside the markers to render.
    out += marked.trim() === '' ? escapeText(marked) : boldTrimmed(marked);
    at = span.end;
  }
  return out + escapeText(text.slice(at));
}

/** Collapses whitespace runs to one space and trims, moving highlight offsets to match. */
export function collapseWhitespace(
  text: string,
  highlights: readonly Highlight[],
): { text: string; highlights: Highlight[] } {
  // at[i] is where input character i lands in the output; at[text.length] is the output's length.
  const at: number[] = [];
  let out = '';
  let pendingSpace = false;
  for (const char of text) {
    for (let unit = 0; unit < char.length; unit += 1)
      at.push(out.length + (pendingSpace && !/\s/.test(char) ? 1 : 0));
    if (/\s/.test(char)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += char;
  }
  at.push(out.length);
  const clamp = (offset: number) => at[Math.min(Math.max(0, offset), text.length)]!;
  return {
    text: out,
    highlights: highlights.map(({ start, end }) => ({ start: clamp(start), end: clamp(end) })),
  };
}

function boldTrimmed(text: string): string {
  const lead = /^\s*/.exec(text)?.[0] ?? '';
  const trail = /\s*$/.exec(text)?.[0] ?? '';
  return `${lead}**${escapeText(text.trim())}**${trail}`;
}

function answerButtons(
  answer: Answer,
  request: AnswerRequest,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  const context: APIButtonComponent[] = answer.results
    .map((result, index) => ({ result, rank: request.offset + index + 1 }))
    .filter(({ result }) => customIds.context(result.citation).length <= Limits.customId)
    .slice(0, Limits.buttonsPerRow)
    .map(({ result, rank }) => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      label: answer.results.length === 1 ? 'Show context' : `Show context ${rank}`,
      custom_id: customIds.context(result.citation),
    }));
  const more: APIButtonComponent[] = answer.hasMore
    ? [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Primary,
          label: 'More results',
          custom_id: customIds.more(request.offset + request.limit, request.limit),
        },
      ]
    : [];
  // The story's coverage over time; an answer from one article has no timeline to speak of.
  const timeline: APIButtonComponent[] = request.source
    ? []
    : [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label: 'Timeline',
          custom_id: customIds.timelineOfAnswer,
        },
      ];
  if (more.length + timeline.length > 0)
    rows.push({ type: ComponentType.ActionRow, components: [...more, ...timeline] });
  if (context.length > 0) rows.push({ type: ComponentType.ActionRow, components: context });
  return rows;
}

import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import { formatValues } from '../../answering/outlet-values.ts';
import type { QuestionReply } from '../../answering/reply-to-question.ts';
import type { Article } from '../../corpus/article.ts';
import { citationLine, PUBLISHER_UNKNOWN, sourceLabel } from '../../corpus/citation.ts';
import { dateLabel } from '../../corpus/published-date.ts';
import type { Disagreement } from '../../factcheck/outlets-differ.ts';
import type { AnswerResult, Highlight, ReportRef, StoryChoice } from '../../search/answer.ts';
import type { Period } from '../../search/period.ts';
import { markSpans } from '../../text/marked-spans.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code, DISCORD_CITATION, isWebUrl } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { customIds, queryFooter } from './query-state.ts';
import { fitText } from './truncate.ts';

/** How a reply was asked for, to label it and to build its buttons (the question is the reply's). */
export interface ReplyScope extends Period {
  limit: number;
  offset: number;
  /** The article the answer was limited to (`/ask source:`, a chosen story), if any. */
  source: Pick<Article, 'id' | 'title'> | null;
  /** The outlets the answer was limited to (a channel's, or `/ask source:` naming one); empty: all. */
  outlets?: readonly string[];
  /**
   * What the answer is called in its first line.
   * @default 'your question'
   */
  subject?: string;
  /** Whether the reply is visible to the asker alone, which a story chosen from it keeps. @default false */
  private?: boolean;
}

/** The first line of closest coverage: the archive may not answer the question. */
export const CLOSEST_LINE = 'I found nothing that clearly answers this. Closest coverage:';

/** Embed colour of answers (Discord's blurple), so they are recognisable in a busy channel. */
const ANSWER_COLOUR = 0x5865f2;
/** Closest coverage in Discord's yellow: not an answer, and not to be read as one. */
const CLOSEST_COLOUR = 0xf0b232;
const NO_COVERAGE_COLOUR = 0x99aab5;
/** Leaves room in the 6,000-character total for five results with titles, citations and the footer. */
const QUOTE_BUDGET = 850;

/** The pipeline's reply as a Discord message: an answer, the closest coverage, or "No coverage found". */
export function renderReply(reply: QuestionReply, scope: ReplyScope): ReplyPayload {
  return reply.answer.results.length === 0 ? renderNoCoverage(reply, scope) : renderPassages(reply, scope);
}

/**
 * Passages as a Discord reply: one embed per passage, each a quote with the question's terms in bold
 * and a citation line; buttons for the context of each result and for the next page. Closest coverage
 * opens with `CLOSEST_LINE` and its embeds are yellow and labelled; when the question fits several
 * stories, they are listed with a "Which story?" menu that answers within the one chosen.
 */
function renderPassages(reply: QuestionReply, scope: ReplyScope): ReplyPayload {
  const { answer } = reply;
  const closest = reply.assurance !== 'answer';
  const from = scope.offset + 1;
  const to = scope.offset + answer.results.length;
  const footer = queryFooter(
    {
      question: reply.question,
      source: scope.source?.id ?? null,
      ...(scope.since ? { since: scope.since } : {}),
      ...(scope.until ? { until: scope.until } : {}),
      ...(scope.outlets?.length ? { outlets: scope.outlets } : {}),
    },
    `Results ${from}–${to}${answer.hasMore ? ' · more available' : ''}`,
  );
  const titles = answer.results.map((result, index) => {
    const rank = `${from + index}. `;
    return rank + fitText(result.title, Limits.embedTitle - rank.length, { render: escapeText });
  });
  const stories = reply.stories.length > 0 ? storiesEmbed(reply.stories) : undefined;
  // Share what the 6,000-character total leaves after titles, the stories and the footer between the quotes.
  const spare =
    Limits.embedTotal -
    100 -
    Math.min(footer.length, Limits.footerText) -
    titles.join('').length -
    (stories?.description?.length ?? 0) -
    (closest ? CLOSEST_AUTHOR.length * answer.results.length : 0);
  const perResult = Math.min(2000, Math.floor(spare / Math.max(1, answer.results.length)));
  const embeds = answer.results.map((result, index) => {
    const embed = resultEmbed(
      result,
      titles[index]!,
      perResult,
      reply.disagreements.get(result.citation) ?? [],
    );
    return closest ? { ...embed, color: CLOSEST_COLOUR, author: { name: CLOSEST_AUTHOR } } : embed;
  });
  if (stories) embeds.push(stories);
  const last = embeds.at(-1);
  if (last) last.footer = { text: footer };
  const note = reply.timeNote ? `${escapeText(reply.timeNote)}\n` : '';
  const scoped = `${scopeOf(scope)}${periodScope(scope)}`;
  const count =
    answer.results.length === 1 ? 'One passage answers' : `${answer.results.length} passages answer`;
  const content = closest
    ? `${CLOSEST_LINE}${scoped ? `\n-# Searched${scoped}.` : ''}${note ? `\n${note.trimEnd()}` : ''}`
    : `${note}${count} ${scope.subject ?? 'your question'}${scoped}:`;
  return {
    content,
    embeds,
    components: [
      ...answerButtons(reply, scope),
      ...(reply.stories.length > 0 ? [storyMenu(reply.stories, scope)] : []),
    ],
  };
}

/** Each closest-coverage passage says so itself, so a quote forwarded alone is not taken as an answer. */
const CLOSEST_AUTHOR = 'Closest coverage · may not answer the question';

/** "Which story?": the stories the question fits, headline, outlet and date, best first. */
function storiesEmbed(stories: readonly StoryChoice[]): APIEmbed {
  return {
    title: 'Which story?',
    color: CLOSEST_COLOUR,
    description: [
      'Your question fits several stories. Choose one below to have it answered within that story:',
      ...stories.map(
        (story, index) =>
          `${index + 1}. ${fitText(story.title, 200, { render: escapeText })} — ${escapeText(sourceLabel(story))}`,
      ),
    ].join('\n'),
  };
}

/**
 * The "Which story?" string select. Its custom_id carries the page size and whether the reply is
 * private; each option's value is an article id; the question and period are in the footer.
 */
function storyMenu(
  stories: readonly StoryChoice[],
  scope: ReplyScope,
): APIActionRowComponent<APIComponentInMessageActionRow> {
  const menu: APIStringSelectComponent = {
    type: ComponentType.StringSelect,
    custom_id: customIds.story(scope.limit, scope.private === true),
    placeholder: 'Which story?',
    options: stories
      .filter((story) => story.article.length <= Limits.selectOptionValue)
      .slice(0, Limits.selectOptions)
      .map((story, index) => ({
        // Numbered as in the list above; the number is never what a cut title loses.
        label: `${index + 1}. ${fitText(story.title, Limits.selectOptionLabel - `${index + 1}. `.length)}`,
        value: story.article,
        description: fitText(sourceLabel(story), Limits.selectOptionLabel),
      })),
  };
  return { type: ComponentType.ActionRow, components: [menu] };
}

/** ` in *Headline*` when the answer was limited to one article. */
function scopeOf(scope: ReplyScope): string {
  return scope.source ? ` in *${fitText(scope.source.title, 300, { render: escapeText })}*` : '';
}

/** "No coverage found", with the closest headlines so the user can rephrase or look further. */
function renderNoCoverage(reply: QuestionReply, scope: ReplyScope): ReplyPayload {
  const shown = fitText(reply.question.replace(/\s+/g, ' ').trim(), 300, { render: escapeText });
  const namedPeriod = reply.answer.time?.named?.label;
  const closest = reply.closestHeadlines;
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
    content: `**No coverage found**${scopeOf(scope)}${periodScope(scope)} for “${shown}”. Nothing in the archive${namedPeriod ? ` from ${escapeText(namedPeriod)}` : ''} answers it, and a guess would be worse than no answer.`,
    embeds,
  };
}

/** "First reported by Wire (1987-02-26) · latest: Coastal Courier (2015-08-31)". */
function reportedLine(reported: NonNullable<AnswerResult['reported']>): string {
  const one = (ref: ReportRef) =>
    `${escapeText(ref.publisher ?? PUBLISHER_UNKNOWN)} (${escapeText(dateLabel(ref.published))}, ${code(ref.citation)})`;
  return `First reported by ${one(reported.earliest)} · latest: ${one(reported.latest)}`;
}

/**
 * The outlets and period an answer was limited to, in words: ` from Wire`, ` among articles published
 * from 2003 to 2004`, both, or nothing.
 */
function periodScope({ outlets, ...period }: Period & { outlets?: readonly string[] }): string {
  const from = outlets?.length ? ` from ${fitText(outlets.join(', '), 300, { render: escapeText })}` : '';
  return `${from}${periodClause(period)}`;
}

/** The period a reply was limited to, as written: ` among articles published from 2003 to 2004`, or nothing. */
export function periodClause({ since, until }: Period): string {
  const words = [since ? `from ${since}` : '', until ? `${since ? 'to' : 'until'} ${until}` : '']
    .filter(Boolean)
    .join(' ');
  return words ? ` among articles published ${escapeText(words)}` : '';
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
  const cite = `\n${citationLine(result, DISCORD_CITATION, { title: false, citation: result.citation })}${differ}${also}${reported}`;
  const note = ` … *(cut; \`/cite ${result.citation}\` shows it all)*`;
  // One line, so the block quote holds all of it; highlight offsets follow the collapsed text.
  const single = collapseWhitespace(result.quote, result.highlights);
  const quote = fitText(single.text, Math.max(40, Math.min(QUOTE_BUDGET, budget - cite.length - 2)), {
    render: (part) => boldHighlights(part, single.highlights),
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

/** The quote, escaped, with each highlighted span in bold (clipped to the text given, merged where they touch). */
export function boldHighlights(text: string, highlights: readonly Highlight[]): string {
  return markSpans(text, highlights, {
    plain: escapeText,
    // Bold needs no leading or trailing space inside the markers to render.
    marked: (part) => (part.trim() === '' ? escapeText(part) : boldTrimmed(part)),
  });
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
  reply: QuestionReply,
  request: ReplyScope,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const { answer } = reply;
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

import { formatValues } from '../answering/outlet-values.ts';
import type { QuestionReply } from '../answering/reply-to-question.ts';
import { type CitationMarkup, citationLine, PUBLISHER_UNKNOWN, sourceLabel } from '../corpus/citation.ts';
import { dateLabel, publishedDay } from '../corpus/published-date.ts';
import type { AnswerResult, StoryChoice } from '../search/answer.ts';
import { ANSI } from '../text/ansi.ts';
import { stripControls } from '../text/controls.ts';
import { markSpans } from '../text/marked-spans.ts';

/** Terminal styling; every function is the identity when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  highlight(text: string): string;
  link(text: string): string;
}

export function makeStyle(colour: boolean): Style {
  if (!colour) {
    const same = (text: string) => text;
    return { bold: same, dim: same, highlight: same, link: same };
  }
  return {
    bold: ANSI.bold,
    dim: ANSI.dim,
    highlight: (text) => ANSI.bold(ANSI.yellow(text)),
    link: ANSI.cyan,
  };
}

/** Colour when writing to a terminal, unless NO_COLOR asks otherwise; FORCE_COLOR turns it on. */
export function wantsColour(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** The quote with its matched words marked. */
export function markQuote(
  result: Pick<AnswerResult, 'quote' | 'highlights'>,
  mark: (text: string) => string,
): string {
  return markSpans(result.quote, result.highlights, {
    plain: stripControls,
    marked: (part) => mark(stripControls(part)),
  });
}

/** `citationLine`'s parts in a terminal: the title bold, the link as `<url>`, the id as `[id]`. */
export function terminalCitation(style: Style): CitationMarkup {
  return {
    title: (text) => style.bold(stripControls(text)),
    text: stripControls,
    link: (url) => style.link(`<${stripControls(url)}>`),
    cite: (citation) => style.dim(`[${stripControls(citation)}]`),
  };
}

/** The first line of closest coverage: the archive may not answer the question. */
export const CLOSEST_LINE = 'I found nothing that clearly answers this. Closest coverage:';

/**
 * A reply as a person reads it in a terminal: numbered quotes, each with its citation; closest
 * coverage under `CLOSEST_LINE`, each quote marked as such, and the stories to choose from with the
 * `--story` that answers within one. Corpus text and the question are stripped of control characters:
 * an article must not drive the terminal.
 */
export function renderAnswer(reply: QuestionReply, style: Style): string {
  const { answer } = reply;
  if (answer.results.length === 0) {
    const named = answer.time?.named?.label;
    const lines = [
      `No coverage found for “${stripControls(answer.query.trim().slice(0, 200))}”${named ? `: nothing from ${stripControls(named)} answers it` : ''}.`,
    ];
    if (reply.closestHeadlines.length > 0) {
      lines.push('Closest articles in the corpus:');
      for (const article of reply.closestHeadlines) {
        const date = dateLabel(article.published);
        lines.push(
          `  • ${stripControls(article.title)} ${style.dim(`(${date}, ${stripControls(article.id)})`)}`,
        );
      }
    }
    return `${lines.join('\n')}\n`;
  }
  const closest = reply.assurance !== 'answer';
  const blocks = answer.results.map((result, i) => {
    const lines = [
      `${style.bold(`${i + 1}.`)} ${closest ? style.dim('(closest) ') : ''}“${markQuote(result, style.highlight)}”`,
      `   ${citationLine(result, terminalCitation(style))}`,
      `   ${style.dim(`[${stripControls(result.citation)}] paragraph ${result.paragraph} · score ${result.score}`)}`,
    ];
    for (const disagreement of reply.disagreements.get(result.citation) ?? []) {
      lines.push(
        `   ${style.bold(`Outlets differ on a ${disagreement.kind}:`)} ${stripControls(formatValues(disagreement.values, (citation) => `[${citation}]`))}`,
      );
    }
    if (result.alsoReportedBy.length > 0) {
      lines.push(`   ${style.dim(`Also reported in: ${stripControls(result.alsoReportedBy.join(', '))}`)}`);
    }
    if (result.reported) {
      const { earliest, latest } = result.reported;
      const ref = (r: typeof earliest) =>
        `${stripControls(r.publisher ?? PUBLISHER_UNKNOWN)} ${publishedDay(r.published)} [${stripControls(r.citation)}]`;
      lines.push(`   ${style.dim(`First reported by ${ref(earliest)}; latest: ${ref(latest)}`)}`);
    }
    return lines.join('\n');
  });
  const head = [
    ...(closest ? [style.bold(CLOSEST_LINE)] : []),
    ...(reply.timeNote ? [style.bold(reply.timeNote)] : []),
  ];
  const stories = reply.stories.length > 0 ? `\n\n${storiesText(reply.stories, style)}` : '';
  return `${head.map((line) => `${line}\n`).join('')}${blocks.join('\n\n')}${stories}\n`;
}

/** "Which story?": the stories the question fits, each with the `--story` that answers within it. */
function storiesText(stories: readonly StoryChoice[], style: Style): string {
  return [
    style.bold('Which story? The question fits several; ask again with --story ID to answer within one:'),
    ...stories.map(
      (story, i) =>
        `  ${i + 1}. ${stripControls(story.title)} — ${stripControls(sourceLabel(story))} ${style.dim(`(--story ${stripControls(story.article)})`)}`,
    ),
  ].join('\n');
}

/**
 * A reply in the CLI's JSON shape: unknown metadata as null, best result first; `outletsDiffer` lists
 * the values the outlets in `alsoReportedBy` give differently (`[]` when they agree); `assurance` says
 * how sure the reply is, and `stories` (only when the reply asks "Which story?") the stories to choose
 * from, each `article` an id for `--story`.
 */
export function answerToJson(reply: QuestionReply): object {
  const { answer } = reply;
  return {
    query: answer.query,
    results: answer.results.map((result) => ({
      citation: result.citation,
      article: result.article,
      paragraph: result.paragraph,
      title: result.title,
      publisher: result.publisher,
      url: result.url,
      published: result.published,
      quote: result.quote,
      passage: result.passage,
      score: result.score,
      alsoReportedBy: result.alsoReportedBy,
      outletsDiffer: reply.disagreements.get(result.citation) ?? [],
      reported: result.reported ?? null,
    })),
    time: answer.time ?? null,
    assurance: reply.assurance,
    ...(reply.stories.length > 0
      ? {
          stories: reply.stories.map((story) => ({
            article: story.article,
            title: story.title,
            publisher: story.publisher,
            published: story.published,
          })),
        }
      : {}),
  };
}

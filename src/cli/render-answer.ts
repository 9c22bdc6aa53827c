import type { Article } from '../corpus/article.ts';
import { dateLabel, publishedDay } from '../corpus/published-date.ts';
import { type Disagreement, formatValues } from '../factcheck/outlets-differ.ts';
import type { Answer, AnswerResult } from '../search/answer.ts';
import { describeTime } from '../search/time-layer.ts';
import { stripControls } from '../text/controls.ts';

/** Terminal styling; every function is the identity when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  highlight(text: string): string;
  link(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function makeStyle(colour: boolean): Style {
  if (!colour) {
    const same = (text: string) => text;
    return { bold: same, dim: same, highlight: same, link: same };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    highlight: (text) => sgr(1, 22)(sgr(33, 39)(text)),
    link: sgr(36, 39),
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
  let out = '';
  let at = 0;
  for (const { start, end } of result.highlights) {
    out += stripControls(result.quote.slice(at, start)) + mark(stripControls(result.quote.slice(start, end)));
    at = end;
  }
  return out + stripControls(result.quote.slice(at));
}

/** "Title — Publisher, 2015-08-01 <url>": what is known of the article, nothing guessed ("undated"). */
export function citationLine(
  result: Pick<AnswerResult, 'title' | 'publisher' | 'published' | 'url'>,
  style: Style,
): string {
  const source = stripControls(
    [result.publisher, dateLabel(result.published)].filter((part) => part !== null).join(', '),
  );
  return [
    style.bold(stripControls(result.title)),
    source && `— ${source}`,
    result.url && style.link(`<${stripControls(result.url)}>`),
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * An answer as a person reads it in a terminal: numbered quotes, each with its citation. Corpus text
 * and the question are stripped of control characters: an article must not drive the terminal.
 */
export function renderAnswer(
  answer: Answer,
  style: Style,
  closest: readonly Article[] = [],
  disagreements: ReadonlyMap<string, readonly Disagreement[]> = new Map(),
): string {
  if (answer.results.length === 0) {
    const named = answer.time?.named?.label;
    const lines = [
      `No coverage found for “${stripControls(answer.query.trim().slice(0, 200))}”${named ? `: nothing from ${stripControls(named)} answers it` : ''}.`,
    ];
    if (closest.length > 0) {
      lines.push('Closest articles in the corpus:');
      for (const article of closest) {
        const date = dateLabel(article.published);
        lines.push(
          `  • ${stripControls(article.title)} ${style.dim(`(${date}, ${stripControls(article.id)})`)}`,
        );
      }
    }
    return `${lines.join('\n')}\n`;
  }
  const blocks = answer.results.map((result, i) => {
    const lines = [
      `${style.bold(`${i + 1}.`)} “${markQuote(result, style.highlight)}”`,
      `   ${citationLine(result, style)}`,
      `   ${style.dim(`[${stripControls(result.citation)}] paragraph ${result.paragraph} · score ${result.score}`)}`,
    ];
    for (const disagreement of disagreements.get(result.citation) ?? []) {
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
        `${stripControls(r.publisher ?? 'publisher unknown')} ${publishedDay(r.published)} [${stripControls(r.citation)}]`;
      lines.push(`   ${style.dim(`First reported by ${ref(earliest)}; latest: ${ref(latest)}`)}`);
    }
    return lines.join('\n');
  });
  const note = describeTime(answer.time);
  return `${note ? `${style.bold(note)}\n` : ''}${blocks.join('\n\n')}\n`;
}

/**
 * An answer in the CLI's JSON shape: unknown metadata as null, best result first; `outletsDiffer` lists
 * the values the outlets in `alsoReportedBy` give differently (`[]` when they agree).
 */
export function answerToJson(
  answer: Answer,
  disagreements: ReadonlyMap<string, readonly Disagreement[]> = new Map(),
): object {
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
      outletsDiffer: disagreements.get(result.citation) ?? [],
      reported: result.reported ?? null,
    })),
    time: answer.time ?? null,
  };
}

import { citationLine } from '../corpus/citation.ts';
import type { QuoteCheck } from '../factcheck/check-quote.ts';
import { stripControls } from '../text/controls.ts';
import { type Style, terminalCitation } from './render-answer.ts';

const HEADLINES = {
  verbatim: 'Verbatim: the coverage carries these exact words.',
  close: 'Close: the coverage says this, with a few small words or word forms different.',
  altered: 'Altered: the closest passage in the coverage says something different.',
  'not-found': 'Not found: no passage in the coverage carries these words.',
} as const;

/**
 * A quote check as a person reads it in a terminal: the diff in `[-dropped-]` / `{+added+}` form. The
 * quotation and corpus text are stripped of control characters, as `npm run ask` does.
 */
export function renderQuoteCheck(check: QuoteCheck, style: Style): string {
  const lines: string[] = [style.bold(HEADLINES[check.verdict])];
  if (check.source === null) {
    lines.push(`  “${stripControls(check.quote)}”`);
    return `${lines.join('\n')}\n`;
  }
  const diff = check.diff
    .map((part) =>
      part.op === 'same'
        ? stripControls(part.text)
        : part.op === 'added'
          ? style.highlight(`{+${stripControls(part.text)}+}`)
          : style.dim(`[-${stripControls(part.text)}-]`),
    )
    .join(' ');
  lines.push(`  “${diff}”`);
  if (check.diff.some((part) => part.op !== 'same'))
    lines.push(style.dim('  {+…+} only in the quote · [-…-] only in the coverage'));
  if (check.speaker) lines.push(`  Speaker: ${stripControls(check.speaker)}`);
  lines.push(`  ${citationLine(check.source.article, terminalCitation(style))}`);
  lines.push(`  ${style.dim(`[${stripControls(check.source.citation)}]`)}`);
  if (check.earliest && check.earliest.citation !== check.source.citation)
    lines.push(
      `  Earliest with these words: ${citationLine(check.earliest.article, terminalCitation(style), { citation: check.earliest.citation })}`,
    );
  return `${lines.join('\n')}\n`;
}

/** The CLI's JSON shape: `{verdict, citation, passage, diff, speaker, earliest}`; `citation` null for `not-found`. */
export function quoteCheckToJson(check: QuoteCheck): object {
  return {
    verdict: check.verdict,
    quote: check.quote,
    citation: check.source?.citation ?? null,
    title: check.source?.article.title ?? null,
    publisher: check.source?.article.publisher ?? null,
    published: check.source?.article.published ?? null,
    url: check.source?.article.url ?? null,
    passage: check.source?.passage ?? null,
    diff: check.diff,
    speaker: check.speaker,
    earliest: check.earliest && {
      citation: check.earliest.citation,
      title: check.earliest.article.title,
      publisher: check.earliest.article.publisher,
      published: check.earliest.published,
    },
  };
}

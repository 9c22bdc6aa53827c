import type { APIEmbed } from 'discord.js';
import type { Article, Passage } from '../../corpus/article.ts';
import { citationLine } from '../../corpus/citation.ts';
import type { ReplyPayload } from '../incoming.ts';
import { DISCORD_CITATION, isWebUrl, metaLine } from './citation.ts';
import { escapeText, neutraliseMentions } from './escape.ts';
import { Limits } from './limits.ts';
import { fitText } from './truncate.ts';

/** A passage with its neighbours, as `engine.context()` returns it. */
export interface PassageInContext {
  article: Article;
  passages: Passage[];
  /** Index in `passages` of the cited one. */
  focus: number;
}

/** Room for the cited passage in full; neighbours share what is left of the 4,096-character description. */
const FOCUS_BUDGET = 3000;

/**
 * One passage in full (as far as Discord allows), with the paragraphs before and after it and the
 * article's metadata: the reply to `/cite` and to "Show context".
 */
export function renderPassageInContext(found: PassageInContext, heading: string): ReplyPayload {
  const { article, passages, focus } = found;
  const cited = passages[focus]!;
  const citedBlock = `**¶${cited.paragraph} (cited)**\n> ${fitText(flat(cited.text), FOCUS_BUDGET, { render: escapeText, note: ' …' })}`;
  const neighbours = passages.length - 1;
  const neighbourBudget =
    neighbours > 0 ? Math.floor((Limits.embedDescription - citedBlock.length - 300) / neighbours) : 0;
  const blocks = passages.map((passage, index) =>
    index === focus
      ? citedBlock
      : `-# ¶${passage.paragraph}\n${fitText(flat(passage.text), Math.max(60, neighbourBudget), { render: escapeText })}`,
  );
  const paragraphs = new Set(article.passages.map((passage) => passage.paragraph)).size;
  const embed: APIEmbed = {
    title: fitText(article.title, Limits.embedTitle, { render: escapeText }),
    author: { name: fitText(neutraliseMentions(metaLine(article)), Limits.authorName) },
    description: fitText(
      `${blocks.join('\n\n')}\n\n${citationLine(article, DISCORD_CITATION, { citation: cited.id })}`,
      Limits.embedDescription,
    ),
    footer: {
      text: `Citation ${cited.id} · paragraph ${cited.paragraph} of ${paragraphs} · article ${article.id}`,
    },
    color: 0x5865f2,
  };
  if (article.url && isWebUrl(article.url)) embed.url = article.url;
  return { content: heading, embeds: [embed] };
}

/** Passages are single paragraphs; a stray newline would end the block quote early. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

import { type APIEmbed, type APIEmbedField, ButtonStyle, ComponentType } from 'discord.js';
import type { Digest } from '../../community/digests.ts';
import { PUBLISHER_UNKNOWN } from '../../corpus/citation.ts';
import { dateLabel } from '../../corpus/published-date.ts';
import type { DigestStory } from '../../digests/stories.ts';
import type { Disagreement } from '../../factcheck/outlets-differ.ts';
import type { ReplyPayload } from '../incoming.ts';
import { outletsDifferLine } from './answer.ts';
import { code, isWebUrl, safeUrl } from './citation.ts';
import { escapeText } from './escape.ts';
import { channelMention } from './settings.ts';
import { fitText } from './truncate.ts';

const DIGEST_COLOUR = 0x5865f2;
/** Stories on one page at most: a digest is read at a glance; the rest are behind "More". */
export const STORIES_PER_PAGE = 6;
/**
 * The characters a page's embed may use: Discord allows 6000 across a message's embeds; what is left
 * is headroom for the title, description and footer, which are counted first.
 */
const EMBED_BUDGET = 5_800;
/** A story's articles listed by name; the others are counted. */
const ARTICLES_LISTED = 4;
const LEDE_CHARS = 280;

/** One page of a digest's stories, with what says which digest and period it is. */
export interface DigestPage {
  digest: Pick<Digest, 'id' | 'topic' | 'outlets' | 'timeZone'>;
  /** The schedule in words, "every day at 18:00 (UTC)". */
  schedule: string;
  /** Every story of the period, top first, with where its outlets' openings differ. */
  stories: readonly (DigestStory & { disagreements: readonly Disagreement[] })[];
  /** The first story of this page (0-based). */
  offset: number;
  /** The period, ms: after `after`, up to and including `until`. */
  after: number;
  until: number;
  /** `after` as the digest's zone shows it: `2026-06-01 18:00`. */
  since: string;
}

/** The custom_id of "More": the digest, its period and where the next page starts, in base 36. */
export function moreCustomId(digestId: number, after: number, until: number, offset: number): string {
  return `digest:more:${digestId}:${after.toString(36)}:${until.toString(36)}:${offset}`;
}

/** A page of a digest: the stories that fit Discord's limits, and "More" when some are left. */
export function renderDigestPage(page: DigestPage): ReplyPayload {
  const articles = page.stories.reduce((sum, story) => sum + story.articles.length, 0);
  const filters = [
    page.digest.topic ? `on “${escapeText(fitText(page.digest.topic, 100))}”` : '',
    page.digest.outlets.length > 0 ? `from ${page.digest.outlets.map(escapeText).join(', ')}` : '',
  ].filter(Boolean);
  const embed: APIEmbed = {
    color: DIGEST_COLOUR,
    title: fitText(
      `Digest: ${count(page.stories.length, 'story', 'stories')}, ${count(articles, 'new article')}`,
      256,
    ),
    description: fitText(
      `New coverage since ${page.since} (${page.digest.timeZone})${filters.length > 0 ? `, ${filters.join(' ')}` : ''}, top stories first.`,
      1_000,
    ),
    fields: [],
  };
  let used = (embed.title?.length ?? 0) + (embed.description?.length ?? 0) + 200;
  const fields: APIEmbedField[] = [];
  let next = page.offset;
  while (next < page.stories.length && fields.length < STORIES_PER_PAGE) {
    const field = storyField(page.stories[next] as DigestPage['stories'][number], next + 1);
    const size = field.name.length + field.value.length;
    if (fields.length > 0 && used + size > EMBED_BUDGET) break;
    fields.push(field);
    used += size;
    next += 1;
  }
  embed.fields = fields;
  const shown = `Stories ${page.offset + 1}–${next} of ${page.stories.length}`;
  embed.footer = { text: fitText(`${shown} · digest ${page.digest.id}, ${page.schedule}`, 2_048) };
  const more = next < page.stories.length;
  return {
    embeds: [embed],
    components: more
      ? [
          {
            type: ComponentType.ActionRow,
            components: [
              {
                type: ComponentType.Button,
                style: ButtonStyle.Secondary,
                label: `More (${page.stories.length - next})`,
                custom_id: moreCustomId(page.digest.id, page.after, page.until, next),
              },
            ],
          },
        ]
      : [],
  };
}

/** A story as one field: its headline, the lead's opening, where outlets differ, and the outlets' articles. */
function storyField(
  story: DigestStory & { disagreements: readonly Disagreement[] },
  rank: number,
): APIEmbedField {
  const lines = story.articles.slice(0, ARTICLES_LISTED).map((article) => {
    const title = escapeText(fitText(article.title, 120));
    const named = article.url && isWebUrl(article.url) ? `[${title}](<${safeUrl(article.url)}>)` : title;
    const outlet = escapeText(article.publisher || PUBLISHER_UNKNOWN);
    return `• ${outlet}: ${named}, ${escapeText(dateLabel(article.published))} · ${code(article.id)}`;
  });
  const others = story.articles.length - ARTICLES_LISTED;
  if (others > 0) lines.push(`and ${count(others, 'more article')}`);
  const reported = story.outlets.length > 1 ? `Reported by ${story.outlets.length} outlets.\n` : '';
  const lede = story.lead.lede ? `${escapeText(fitText(story.lead.lede, LEDE_CHARS))}\n` : '';
  const differ = story.disagreements.map((d) => `${outletsDifferLine(d)}\n`).join('');
  return {
    name: fitText(`${rank}. ${story.lead.title}`, 256),
    value: fitText(`${reported}${lede}${differ}${lines.join('\n')}`, 1_024),
  };
}

/** `/digest list`: the server's digests, each with its id, channel, schedule, filters and next time. */
export function renderDigestList(
  digests: readonly { digest: Digest; schedule: string; next: string }[],
  said?: string,
): ReplyPayload {
  if (digests.length === 0)
    return {
      content: `${said ? `${said}\n` : ''}This server has no digests. \`/digest add channel:#news every:day at:18:00\` sets one up.`,
    };
  return {
    ...(said ? { content: said } : {}),
    embeds: [
      {
        color: DIGEST_COLOUR,
        title: `Digests of this server (${digests.length})`,
        fields: digests.map(({ digest, schedule, next }) => ({
          name: fitText(`Digest ${digest.id}`, 256),
          value: fitText(
            [
              `${channelMention(digest.channelId)}, ${schedule}; next ${next}.`,
              digest.topic ? `Topic: ${escapeText(digest.topic)}` : 'Every topic.',
              digest.outlets.length > 0
                ? `Outlets: ${digest.outlets.map(escapeText).join(', ')}`
                : 'Every outlet.',
            ].join('\n'),
            1_024,
          ),
        })),
        footer: { text: 'A period with nothing new sends nothing. /digest remove id:<n> stops one.' },
      },
    ],
  };
}

function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

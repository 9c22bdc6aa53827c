import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';
import type { ReplyPayload } from '../../interactions/incoming.ts';
import { EPHEMERAL } from '../../interactions/render/payload.ts';

/** ANSI styles, or nothing when the output is not a terminal. */
export interface Palette {
  bold(text: string): string;
  italic(text: string): string;
  dim(text: string): string;
  code(text: string): string;
  accent(text: string): string;
  /** Words only in a member's version of a quote (Discord: `__underlined__`). */
  added(text: string): string;
  /** Words only in the coverage (Discord: `~~struck~~`). */
  dropped(text: string): string;
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const COLOUR: Palette = {
  bold: ansi(1, 22),
  italic: ansi(3, 23),
  dim: ansi(2, 22),
  code: ansi(36, 39),
  accent: ansi(34, 39),
  added: (text) => ansi(4, 24)(ansi(32, 39)(text)),
  dropped: (text) => ansi(9, 29)(ansi(31, 39)(text)),
};

export const PLAIN: Palette = {
  bold: (text) => text,
  italic: (text) => text,
  dim: (text) => text,
  code: (text) => text,
  accent: (text) => text,
  added: (text) => `{+${text}+}`,
  dropped: (text) => `[-${text}-]`,
};

/** A button as the console shows it: a number to `/press`, its label, and its custom_id. */
export interface ConsoleButton {
  label: string;
  customId: string;
  disabled: boolean;
}

/** The buttons of a reply, in order, as `/press <n>` numbers them. */
export function buttonsOf(payload: ReplyPayload): ConsoleButton[] {
  const rows = (payload.components ?? []) as APIActionRowComponent<APIComponentInMessageActionRow>[];
  return rows.flatMap((row) =>
    row.components.flatMap((component) =>
      'custom_id' in component && 'label' in component
        ? [
            {
              label: String(component.label ?? ''),
              customId: component.custom_id,
              disabled: Boolean(component.disabled),
            },
          ]
        : [],
    ),
  );
}

/**
 * The same reply object Discord gets, as terminal text: markdown turned into styles (or dropped),
 * escapes undone, embeds as indented blocks, buttons as numbered `/press` hints.
 */
export function renderText(payload: ReplyPayload, palette: Palette): string {
  const lines: string[] = [];
  if (((payload.flags ?? 0) & EPHEMERAL) !== 0) lines.push(palette.dim('(only you can see this)'));
  if (payload.content) lines.push(markdown(payload.content, palette));
  for (const embed of payload.embeds ?? []) lines.push(embedText(embed, palette));
  const buttons = buttonsOf(payload);
  if (buttons.length > 0) {
    const labels = buttons.map(
      (button, index) => `[${index + 1}] ${button.label}${button.disabled ? ' (disabled)' : ''}`,
    );
    lines.push(palette.dim(`${labels.join('   ')}   — type /press <number>`));
  }
  return lines.join('\n');
}

function embedText(embed: APIEmbed, palette: Palette): string {
  const out: string[] = [];
  if (embed.author?.name) out.push(palette.dim(plain(embed.author.name)));
  if (embed.title)
    out.push(palette.bold(markdown(embed.title, palette)) + (embed.url ? ` ${palette.dim(embed.url)}` : ''));
  if (embed.description) out.push(markdown(embed.description, palette));
  for (const field of embed.fields ?? [])
    out.push(`${palette.bold(markdown(field.name, palette))}: ${markdown(field.value, palette)}`);
  if (embed.footer?.text) out.push(palette.dim(plain(embed.footer.text)));
  const bar = palette.accent('┃ ');
  return out
    .join('\n')
    .split('\n')
    .map((line) => bar + line)
    .join('\n');
}

/** Text Discord shows as it is (footers, author names): only zero-width spaces and timestamps change. */
function plain(text: string): string {
  return timestamps(text.replaceAll('\u200b', ''));
}

const ESCAPED = /\\([\\*_~`|[\]()<>#.:\-+!])/g;

/** Discord markdown as terminal text: the subset the renderer produces. */
export function markdown(text: string, palette: Palette): string {
  // Escaped characters are set aside first so formatting never applies to them.
  const literals: string[] = [];
  const hold = (char: string) => {
    literals.push(char);
    return `\u{f0000}${literals.length - 1}\u{f0001}`;
  };
  let out = plain(text).replace(ESCAPED, (_match, char: string) => hold(char));
  out = out
    .replace(/\[([^\]]+)\]\(<?([^)>]+)>?\)/g, (_match, label: string, url: string) => `${label} (${url})`)
    .replace(/`([^`]+)`/g, (_match, inner: string) => palette.code(inner))
    .replace(/\*\*([^*]+)\*\*/g, (_match, inner: string) => palette.bold(inner))
    .replace(/__([^_]+)__/g, (_match, inner: string) => palette.added(inner))
    .replace(/~~([^~]+)~~/g, (_match, inner: string) => palette.dropped(inner))
    .replace(/\*([^*\n]+)\*/g, (_match, inner: string) => palette.italic(inner))
    .replace(/^> ?/gm, '│ ')
    .replace(/^-# (.*)$/gm, (_match, inner: string) => palette.dim(inner));
  return out.replace(/\u{f0000}(\d+)\u{f0001}/gu, (_match, index: string) => literals[Number(index)] ?? '');
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** Each unit of a relative time, used up to the size past which the next one reads better. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['minute', 60_000, 90],
  ['hour', 3_600_000, 36],
  ['day', 86_400_000, 45],
  ['month', 2_629_800_000, 18],
  ['year', 31_557_600_000, Number.POSITIVE_INFINITY],
];

/** As Discord shows `<t:…:R>`: "5 minutes ago", "in 30 minutes", "in 3 days". */
function relative(date: Date): string {
  const ms = date.getTime() - Date.now();
  // A timestamp holds whole seconds, so a moment just past, rounded, can be up to half a second ahead.
  if (Math.abs(ms) < 60_000) return ms < 1000 ? 'just now' : 'in a few seconds';
  for (const [unit, size, upTo] of UNITS) {
    const count = Math.round(ms / size);
    if (Math.abs(count) < upTo) return RELATIVE.format(count, unit);
  }
  return date.toISOString().slice(0, 10);
}

/** `<t:1700000000:f>` → a readable date; `:R` → a time relative to now. */
function timestamps(text: string): string {
  return text.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_match, seconds: string, style?: string) => {
    const date = new Date(Number(seconds) * 1000);
    if (style === 'R') return relative(date);
    return date.toISOString().replace('T', ' ').slice(0, 16);
  });
}

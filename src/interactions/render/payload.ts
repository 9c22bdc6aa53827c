import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  ComponentType,
} from 'discord.js';
import type { AutocompleteChoice, ReplyPayload } from '../incoming.ts';
import { isWebUrl } from './citation.ts';
import { hasLiveMention, neutraliseMentions } from './escape.ts';
import { Limits } from './limits.ts';
import { hardCut } from './truncate.ts';

/** Discord's message flag for a reply only the user who asked can see. */
export const EPHEMERAL = 1 << 6;

/**
 * The last guard before anything leaves the bot: whatever a renderer produced, the payload that goes
 * out pings nobody (`allowed_mentions: { parse: [] }`) and is within every one of Discord's limits.
 * Renderers cut text more gracefully (at sentences, with a note); this only catches what they missed.
 */
export function finalizeReply(payload: ReplyPayload): ReplyPayload {
  const out: ReplyPayload = { ...payload, allowed_mentions: { parse: [] } };
  if (out.content !== undefined) out.content = hardCut(out.content, Limits.content);
  if (out.embeds) out.embeds = fitEmbeds(out.embeds.slice(0, Limits.embeds).map(fitEmbed));
  if (out.components)
    out.components = fitComponents(out.components as APIActionRowComponent<APIComponentInMessageActionRow>[]);
  if (!out.content && (!out.embeds || out.embeds.length === 0)) out.content = '(nothing to show)';
  return out;
}

/** Marks a payload as visible only to the user who triggered it. */
export function ephemeral(payload: ReplyPayload): ReplyPayload {
  return { ...payload, flags: (payload.flags ?? 0) | EPHEMERAL };
}

/** Autocomplete choices within Discord's limits: 25 at most, names and values up to 100 characters. */
export function finalizeChoices(choices: AutocompleteChoice[]): AutocompleteChoice[] {
  return choices
    .filter((choice) => choice.value.length > 0 && choice.value.length <= Limits.choiceValue)
    .slice(0, Limits.autocompleteChoices)
    .map((choice) => ({
      // Names are corpus text (article titles): cleaned like message bodies (ESC, BEL, U+202E).
      name: hardCut(neutraliseMentions(choice.name), Limits.choiceName) || choice.value,
      value: choice.value,
    }));
}

function fitEmbed(embed: APIEmbed): APIEmbed {
  const out: APIEmbed = { ...embed };
  if (out.title !== undefined) out.title = hardCut(out.title, Limits.embedTitle);
  if (out.description !== undefined) out.description = hardCut(out.description, Limits.embedDescription);
  if (out.url !== undefined && !isWebUrl(out.url)) delete out.url;
  if (out.author) {
    out.author = { ...out.author, name: hardCut(neutraliseMentions(out.author.name), Limits.authorName) };
    if (out.author.url !== undefined && !isWebUrl(out.author.url)) delete out.author.url;
  }
  if (out.footer)
    out.footer = { ...out.footer, text: hardCut(neutraliseMentions(out.footer.text), Limits.footerText) };
  if (out.fields) {
    out.fields = out.fields.slice(0, Limits.embedFields).map((field) => ({
      ...field,
      name: hardCut(field.name, Limits.fieldName) || '\u200b',
      value: hardCut(field.value, Limits.fieldValue) || '\u200b',
    }));
  }
  return out;
}

/** Keeps the sum over all embeds under 6,000 by shortening the last descriptions, then dropping embeds. */
function fitEmbeds(embeds: APIEmbed[]): APIEmbed[] {
  const out = [...embeds];
  let excess = out.reduce((sum, embed) => sum + embedLength(embed), 0) - Limits.embedTotal;
  for (let index = out.length - 1; excess > 0 && index >= 0; index -= 1) {
    const embed = out[index]!;
    const description = embed.description ?? '';
    if (description.length > excess + 50) {
      out[index] = { ...embed, description: hardCut(description, description.length - excess) };
      excess = 0;
    } else if (index > 0) {
      out.splice(index, 1);
      excess -= embedLength(embed);
    } else {
      out[index] = { ...embed, description: hardCut(description, Math.max(1, description.length - excess)) };
      excess = 0;
    }
  }
  return out;
}

/** Characters Discord counts towards the 6,000 total of a message's embeds. */
export function embedLength(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}

function fitComponents(
  rows: APIActionRowComponent<APIComponentInMessageActionRow>[],
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  return rows
    .map((row) => ({
      ...row,
      components: row.components
        .filter((component) => !('custom_id' in component) || component.custom_id.length <= Limits.customId)
        .slice(0, Limits.buttonsPerRow)
        .map((component) =>
          'label' in component && typeof component.label === 'string'
            ? ({
                ...component,
                label: hardCut(neutraliseMentions(component.label), Limits.buttonLabel),
              } as APIButtonComponent)
            : component.type === ComponentType.StringSelect
              ? {
                  ...component,
                  options: component.options.slice(0, Limits.selectOptions).map((option) => ({
                    ...option,
                    label: hardCut(option.label, Limits.selectOptionLabel) || option.value,
                    ...(option.description === undefined
                      ? {}
                      : { description: hardCut(option.description, Limits.selectOptionLabel) }),
                  })),
                }
              : component,
        ),
    }))
    .filter((row) => row.components.length > 0)
    .slice(0, Limits.actionRows);
}

/**
 * Every way a payload breaks Discord's limits or could ping someone, as readable sentences; empty
 * when it is fine. Used by tests and property tests, and cheap enough to log in production.
 */
export function payloadViolations(payload: ReplyPayload): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const mentions = payload.allowed_mentions;
  check(
    mentions !== undefined &&
      Array.isArray(mentions.parse) &&
      mentions.parse.length === 0 &&
      !mentions.roles?.length &&
      !mentions.users?.length,
    'allowed_mentions must be { parse: [] }',
  );
  check((payload.content ?? '').length <= Limits.content, `content longer than ${Limits.content}`);
  check(!hasLiveMention(payload.content ?? ''), 'content has a live mention');
  const embeds = payload.embeds ?? [];
  check(embeds.length <= Limits.embeds, `more than ${Limits.embeds} embeds`);
  check(
    embeds.reduce((sum, embed) => sum + embedLength(embed), 0) <= Limits.embedTotal,
    'embeds over 6000 in total',
  );
  for (const [index, embed] of embeds.entries()) {
    const at = `embed ${index}`;
    check((embed.title?.length ?? 0) <= Limits.embedTitle, `${at}: title too long`);
    check((embed.description?.length ?? 0) <= Limits.embedDescription, `${at}: description too long`);
    check((embed.footer?.text.length ?? 0) <= Limits.footerText, `${at}: footer too long`);
    check((embed.author?.name.length ?? 0) <= Limits.authorName, `${at}: author too long`);
    check((embed.fields?.length ?? 0) <= Limits.embedFields, `${at}: too many fields`);
    for (const field of embed.fields ?? []) {
      check(field.name.length > 0 && field.name.length <= Limits.fieldName, `${at}: bad field name length`);
      check(
        field.value.length > 0 && field.value.length <= Limits.fieldValue,
        `${at}: bad field value length`,
      );
    }
    const texts = [
      embed.title,
      embed.description,
      embed.footer?.text,
      embed.author?.name,
      ...(embed.fields ?? []).flatMap((f) => [f.name, f.value]),
    ];
    check(!texts.some((text) => text !== undefined && hasLiveMention(text)), `${at}: live mention`);
    if (embed.url !== undefined) check(isWebUrl(embed.url), `${at}: url is not http(s)`);
  }
  const rows = (payload.components ?? []) as APIActionRowComponent<APIComponentInMessageActionRow>[];
  check(rows.length <= Limits.actionRows, `more than ${Limits.actionRows} action rows`);
  for (const row of rows) {
    check(
      row.components.length <= Limits.buttonsPerRow,
      `more than ${Limits.buttonsPerRow} buttons in a row`,
    );
    for (const component of row.components) {
      if ('custom_id' in component)
        check(
          component.custom_id.length <= Limits.customId,
          `custom_id over ${Limits.customId}: ${component.custom_id}`,
        );
      if ('label' in component && typeof component.label === 'string') {
        check(component.label.length <= Limits.buttonLabel, 'button label too long');
        check(!hasLiveMention(component.label), 'button label has a live mention');
      }
      if (component.type === ComponentType.StringSelect) {
        check(row.components.length === 1, 'a select menu shares its row');
        check(
          component.options.length >= 1 && component.options.length <= Limits.selectOptions,
          `a select menu needs 1 to ${Limits.selectOptions} options`,
        );
        check(
          (component.placeholder?.length ?? 0) <= Limits.selectPlaceholder,
          'select placeholder too long',
        );
        for (const option of component.options) {
          check(
            option.label.length >= 1 && option.label.length <= Limits.selectOptionLabel,
            'select option label length',
          );
          check(
            option.value.length >= 1 && option.value.length <= Limits.selectOptionValue,
            'select option value length',
          );
          check(
            (option.description?.length ?? 0) <= Limits.selectOptionLabel,
            'select option description too long',
          );
        }
      }
    }
  }
  const files = payload.files ?? [];
  check(files.length <= Limits.attachments, `more than ${Limits.attachments} files`);
  for (const file of files) {
    check(
      file.data.byteLength <= Limits.attachmentBytes,
      `${file.name}: over ${Limits.attachmentBytes} bytes`,
    );
    check(
      (file.description?.length ?? 0) <= Limits.attachmentDescription,
      `${file.name}: description too long`,
    );
  }
  if (files.length > 0)
    check(
      payload.attachments?.length === files.length &&
        files.every((file, index) => payload.attachments?.[index]?.filename === file.name),
      'attachments must describe each file, in order',
    );
  check((payload.content ?? '').length > 0 || embeds.length > 0, 'empty message');
  return problems;
}

/** Problems with an autocomplete answer; empty when it is within Discord's limits. */
export function choicesViolations(choices: AutocompleteChoice[]): string[] {
  const problems: string[] = [];
  if (choices.length > Limits.autocompleteChoices) problems.push('more than 25 choices');
  for (const choice of choices) {
    if (choice.name.length < 1 || choice.name.length > Limits.choiceName)
      problems.push(`choice name length ${choice.name.length}`);
    if (choice.value.length < 1 || choice.value.length > Limits.choiceValue)
      problems.push(`choice value length ${choice.value.length}`);
  }
  return problems;
}

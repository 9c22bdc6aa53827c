import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import type { z } from 'zod';

/**
 * Says in plain words what is wrong with a command's options: which option, what it accepts (read from
 * the command's own Discord definition, which the client enforces too) and what was given. One line per
 * option, in the order the command declares them; a validation library's wording never reaches a user.
 */
export function describeOptionProblems(
  definition: RESTPostAPIApplicationCommandsJSONBody,
  raw: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): string {
  const subcommand = typeof raw.subcommand === 'string' ? raw.subcommand : undefined;
  const group = typeof raw.subcommandGroup === 'string' ? raw.subcommandGroup : undefined;
  const declared = optionsOf(definition, subcommand, group);
  const label = `\`/${[definition.name, group, subcommand].filter(Boolean).join(' ')}\``;
  const named = new Set(issues.map((issue) => String(issue.path[0] ?? '')));
  const lines = declared
    .filter((option) => named.has(option.name))
    .map((option) => describeOne(label, option, raw[option.name]));
  for (const name of named) {
    if (
      name === 'subcommand' ||
      name === 'subcommandGroup' ||
      declared.some((option) => option.name === name)
    )
      continue;
    lines.push(`\`${name}\` is not valid; got ${describeValue(raw[name])}.`);
  }
  if (named.has('subcommand')) {
    const subcommands = ('options' in definition ? (definition.options ?? []) : [])
      .filter((option) => option.type === ApplicationCommandOptionType.Subcommand)
      .map((option) => `\`${option.name}\``);
    lines.push(
      subcommands.length > 0
        ? `${label} needs one of ${joinOr(subcommands)}.`
        : `${label} does not take a subcommand.`,
    );
  }
  return lines.join('\n');
}

function optionsOf(
  definition: RESTPostAPIApplicationCommandsJSONBody,
  subcommand: string | undefined,
  group: string | undefined,
): readonly APIApplicationCommandOption[] {
  let top = 'options' in definition ? (definition.options ?? []) : [];
  if (group !== undefined) {
    const found = top.find((option) => option.name === group);
    top = found && found.type === ApplicationCommandOptionType.SubcommandGroup ? (found.options ?? []) : [];
  }
  if (subcommand === undefined) return top;
  const chosen = top.find((option) => option.name === subcommand);
  return chosen && chosen.type === ApplicationCommandOptionType.Subcommand ? (chosen.options ?? []) : [];
}

function describeOne(label: string, option: APIApplicationCommandOption, value: unknown): string {
  const name = `\`${option.name}\``;
  const about = option.description ? ` (${option.description.replace(/\.$/, '')})` : '';
  if (value === undefined || value === null) return `${label} needs ${name}${about}.`;
  const given = `got ${describeValue(value)}`;
  switch (option.type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const kind = option.type === ApplicationCommandOptionType.Integer ? 'a whole number' : 'a number';
      const { min_value: min, max_value: max } = option;
      const range =
        min !== undefined && max !== undefined
          ? ` from ${min} to ${max}`
          : min !== undefined
            ? ` of at least ${min}`
            : max !== undefined
              ? ` of at most ${max}`
              : '';
      return `${name} must be ${kind}${range}; ${given}.`;
    }
    case ApplicationCommandOptionType.String: {
      const text = typeof value === 'string' ? value.trim() : '';
      if (typeof value === 'string' && text === '') return `${label} needs ${name}${about}; it was empty.`;
      if (option.max_length !== undefined && text.length > option.max_length) {
        return `${name} must be at most ${option.max_length} characters; got ${text.length}.`;
      }
      return `${name} is not valid${about}; ${given}.`;
    }
    case ApplicationCommandOptionType.Boolean:
      return `${name} must be true or false; ${given}.`;
    case ApplicationCommandOptionType.Attachment:
      return `${name} must be a file attached to the command${about}.`;
    case ApplicationCommandOptionType.Channel:
      return `${name} must be a channel of this server, picked from the list${about}.`;
    default:
      return `${name} is not valid${about}; ${given}.`;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return 'something else';
}

function joinOr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

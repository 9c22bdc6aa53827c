import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import type { AttachmentOption, IncomingInteraction, RawOptions } from '../../interactions/incoming.ts';
import type { CommandRegistry } from '../../interactions/registry.ts';

/** Who the console's user is: the operator at the keyboard, with a moderator's rights. */
export interface ConsoleIdentity {
  userId: string;
  userName: string;
  guildId: string;
  channelId?: string;
  memberRoleIds: string[];
  memberPermissions: bigint;
}

/** What one line typed at the console asks for. */
export type ConsoleAction =
  | { kind: 'interaction'; interaction: IncomingInteraction }
  | { kind: 'press'; button: number }
  | { kind: 'choose'; option: number }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'nothing' }
  | { kind: 'error'; message: string };

let sequence = 0;

/**
 * Parses a console line into the same interaction Discord would deliver:
 * - `/ask who threatened the mayor? limit:2 private:true`: text before the first `name:` goes to the
 *   command's first required text option; other options are given as `name:value`;
 * - `/corpus remove id:foo`: a subcommand is the first word;
 * - `/find <text>`: the "Find coverage" message command on a message with that text;
 * - `/complete <command> <option> <text>`: what autocomplete would suggest;
 * - `/press <n>`: press button n of the last reply (its menus' options are numbered after its buttons);
 * - `/choose <n>`: choose option n of the last reply's menu ("Which story?"); `/help`; `/quit`;
 * - a line without a slash is a question for `/ask`.
 */
export function parseLine(line: string, registry: CommandRegistry, identity: ConsoleIdentity): ConsoleAction {
  const text = line.trim();
  if (text === '') return { kind: 'nothing' };
  if (!text.startsWith('/')) return parseLine(`/ask ${text}`, registry, identity);
  const [, word = '', rest = ''] = /^\/(\S+)\s*([\s\S]*)$/.exec(text) ?? [];
  sequence += 1;
  const base = { id: `console-${sequence}`, ...identity };
  switch (word.toLowerCase()) {
    case 'quit':
    case 'exit':
      return { kind: 'quit' };
    case 'help':
      return { kind: 'help' };
    case 'press': {
      const button = Number.parseInt(rest, 10);
      return Number.isInteger(button) && button > 0
        ? { kind: 'press', button }
        : { kind: 'error', message: 'Usage: /press <number of the button>' };
    }
    case 'choose': {
      const option = Number.parseInt(rest, 10);
      return Number.isInteger(option) && option > 0
        ? { kind: 'choose', option }
        : { kind: 'error', message: 'Usage: /choose <number of the option>' };
    }
    case 'find':
    case 'find-coverage': {
      const command = registry.all.find(
        (entry) => entry.data.toJSON().type === ApplicationCommandType.Message,
      );
      if (!command) return { kind: 'error', message: 'There is no message command.' };
      return {
        kind: 'interaction',
        interaction: {
          ...base,
          kind: 'message-context-menu',
          commandName: command.data.name,
          targetMessage: { id: `console-message-${sequence}`, content: rest, embeds: [] },
        },
      };
    }
    case 'complete': {
      const [, name = '', option = '', typed = ''] = /^(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(rest) ?? [];
      if (!registry.command(name))
        return { kind: 'error', message: 'Usage: /complete <command> <option> <text typed so far>' };
      return {
        kind: 'interaction',
        interaction: {
          ...base,
          kind: 'autocomplete',
          commandName: name,
          options: { [option]: typed },
          focused: { name: option, value: typed },
        },
      };
    }
  }
  const command = registry.command(word);
  if (!command) return { kind: 'error', message: `Unknown command /${word}. Type /help for the list.` };
  const parsed = parseOptions(rest, command.data.toJSON());
  if ('error' in parsed) return { kind: 'error', message: parsed.error };
  return {
    kind: 'interaction',
    interaction: { ...base, kind: 'chat-input', commandName: word, options: parsed.options },
  };
}

function parseOptions(
  text: string,
  definition: RESTPostAPIApplicationCommandsJSONBody,
): { options: RawOptions } | { error: string } {
  let declared: readonly APIApplicationCommandOption[] =
    'options' in definition ? (definition.options ?? []) : [];
  const options: RawOptions = {};
  let rest = text;
  const subcommand = declared.find((option) => option.type === ApplicationCommandOptionType.Subcommand);
  if (subcommand) {
    const [, name = '', after = ''] = /^(\S*)\s*([\s\S]*)$/.exec(rest) ?? [];
    const chosen = declared.find(
      (option) => option.type === ApplicationCommandOptionType.Subcommand && option.name === name,
    );
    if (!chosen || chosen.type !== ApplicationCommandOptionType.Subcommand) {
      const names = declared.map((option) => option.name).join(', ');
      return { error: `/${definition.name} needs a subcommand: ${names}` };
    }
    options.subcommand = name;
    declared = chosen.options ?? [];
    rest = after;
  }
  const names = declared.map((option) => option.name);
  const marker =
    names.length > 0 ? new RegExp(`(?:^|\\s)(${names.map(escapeRegExp).join('|')}):`, 'g') : null;
  const marks = marker ? [...rest.matchAll(marker)] : [];
  let leading = rest.slice(0, marks[0]?.index ?? rest.length).trim();
  const values: [APIApplicationCommandOption, string][] = [];
  for (const [index, mark] of marks.entries()) {
    const option = declared.find((entry) => entry.name === mark[1])!;
    const start = mark.index + mark[0].length;
    let value = rest.slice(start, marks[index + 1]?.index ?? rest.length).trim();
    // A number or a yes/no is one word: in `/ask limit:9 mayor` the words after it are the question.
    if (isOneWord(option.type)) {
      const [, word = '', after = ''] = /^(\S*)\s*([\s\S]*)$/.exec(value) ?? [];
      value = word;
      leading = `${leading} ${after}`.trim();
    }
    values.push([option, value]);
  }
  // `name:value` for a name the command does not have would otherwise be asked as part of the text.
  const unknown = /(?:^|\s)([a-z][a-z0-9_-]*):(?!\/\/)\S/.exec(leading)?.[1];
  if (unknown !== undefined) {
    const text = declared.find((option) => option.type === ApplicationCommandOptionType.String);
    return {
      error:
        `/${definition.name} has no option ${unknown}. Its options: ${names.join(', ') || 'none'}.` +
        (text ? ` Text with a colon goes in ${text.name}:…` : ''),
    };
  }
  if (leading !== '') {
    // `/corpus add notes/story.md` names a file on this machine, `/corpus add https://…` a link.
    const file = declared.find((option) => option.type === ApplicationCommandOptionType.Attachment);
    const primary =
      (/^https?:\/\//i.test(leading) ? undefined : file) ??
      declared.find((option) => option.type === ApplicationCommandOptionType.String && option.required) ??
      declared.find((option) => option.type === ApplicationCommandOptionType.String) ??
      declared.find((option) => option.type === ApplicationCommandOptionType.Attachment);
    if (!primary)
      return { error: `/${definition.name} takes no text; options are ${names.join(', ') || 'none'}` };
    values.unshift([primary, leading]);
  }
  for (const [option, value] of values) {
    if (option.type === ApplicationCommandOptionType.Attachment) {
      // The operator's own file, by path: the console reads it before dispatching (`readLocalFiles`).
      if (value !== '') options[option.name] = localFile(value);
      continue;
    }
    options[option.name] = convert(option.type, value);
  }
  return { options };
}

/** A file named at the console, to be read from disk: a `file:` URL until `readLocalFiles` reads it. */
function localFile(filePath: string): AttachmentOption {
  return {
    kind: 'attachment',
    id: `console-file-${sequence}`,
    filename: path.basename(filePath),
    url: pathToFileURL(path.resolve(filePath)).href,
    size: 0,
    contentType: null,
  };
}

/**
 * Reads the files named in a console command and puts their bytes in the attachment as a `data:` URL,
 * which the command downloads as it would Discord's. Returns a message for the operator when one
 * cannot be read.
 */
export async function readLocalFiles(options: RawOptions): Promise<string | undefined> {
  for (const value of Object.values(options)) {
    if (typeof value !== 'object' || !value.url.startsWith('file:')) continue;
    const filePath = fileURLToPath(value.url);
    let bytes: Buffer;
    try {
      bytes = await readFile(filePath);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
      return `Cannot read ${filePath}: ${reason}.`;
    }
    value.size = bytes.byteLength;
    value.url = `data:application/octet-stream;base64,${bytes.toString('base64')}`;
  }
  return undefined;
}

function isOneWord(type: ApplicationCommandOptionType): boolean {
  return (
    type === ApplicationCommandOptionType.Integer ||
    type === ApplicationCommandOptionType.Number ||
    type === ApplicationCommandOptionType.Boolean
  );
}

function convert(type: ApplicationCommandOptionType, value: string): string | number | boolean {
  if (
    (type === ApplicationCommandOptionType.Integer || type === ApplicationCommandOptionType.Number) &&
    /^-?\d+(\.\d+)?$/.test(value)
  ) {
    return Number(value);
  }
  if (type === ApplicationCommandOptionType.Boolean && /^(true|false|yes|no)$/i.test(value))
    return /^(true|yes)$/i.test(value);
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ComponentType } from 'discord.js';
import { type DispatchContext, dispatchInteraction } from '../../interactions/dispatch.ts';
import type {
  AutocompleteChoice,
  ModalPayload,
  ReplyPayload,
  Responder,
  SourceMessage,
} from '../../interactions/incoming.ts';
import { type ConsoleIdentity, parseLine, readLocalFiles } from './parse-line.ts';
import { buttonsOf, COLOUR, markdown, type Palette, PLAIN, renderText } from './render-text.ts';
import { SavedFiles } from './saved-files.ts';

/** Every permission bit: the operator at the console is the server's owner, in effect. */
const ALL_PERMISSIONS = (1n << 53n) - 1n;

/** A reply printed at the console, kept so `/press <n>` can press its buttons. */
interface Shown {
  id: string;
  payload: ReplyPayload;
}

/** Prints replies instead of sending them; remembers the last one, whose buttons `/press` presses. */
class ConsoleResponder implements Responder {
  constructor(
    private readonly print: (text: string) => void,
    private readonly palette: Palette,
    private readonly remember: (payload: ReplyPayload) => void,
    private readonly files: SavedFiles,
    private readonly openModal: (modal: ModalPayload) => void,
  ) {}

  /** A modal becomes a prompt: the next line typed is its one text field (`/cancel` drops it). */
  async showModal(modal: ModalPayload): Promise<void> {
    this.openModal(modal);
    const field = fieldOf(modal);
    this.print(
      `${this.palette.bold(modal.title)}${field?.description ? ` (${field.description})` : ''}: ${field?.label ?? 'type your answer'} on the next line, or /cancel.`,
    );
  }

  async reply(payload: ReplyPayload): Promise<void> {
    this.show(payload);
  }

  async defer(): Promise<void> {
    this.print(this.palette.dim('working…'));
  }

  async editReply(payload: ReplyPayload): Promise<void> {
    this.show(payload);
  }

  async update(payload: ReplyPayload): Promise<void> {
    this.show(payload);
  }

  async deferUpdate(): Promise<void> {
    this.print(this.palette.dim('working…'));
  }

  async deletePressedMessage(): Promise<void> {
    this.print(this.palette.dim('(the answer was removed)'));
  }

  async autocomplete(choices: AutocompleteChoice[]): Promise<void> {
    this.print(
      choices.length === 0
        ? this.palette.dim('(no suggestions)')
        : choices.map((choice) => `${this.palette.code(choice.value)}  ${choice.name}`).join('\n'),
    );
  }

  private show(payload: ReplyPayload): void {
    this.remember(payload);
    this.print(renderText(payload, this.palette));
    // A chart cannot be shown in a terminal: it is written to a file to open.
    for (const path of this.files.save(payload.files ?? [])) this.print(`chart: ${path}`);
  }
}

/**
 * The local console: reads commands line by line (a terminal prompt, or piped input answered line by
 * line in order), dispatches them exactly as Discord interactions are dispatched, and prints the
 * replies as text. Resolves when the input ends or on `/quit`.
 */
export async function runConsole(options: {
  ctx: DispatchContext;
  input: Readable;
  output: Writable;
  /** ANSI styles. @default true when output is a terminal */
  colour?: boolean;
  /** Show a prompt and a greeting. @default true when input is a terminal */
  interactive?: boolean;
  /** Ends the console as `/quit` does, once the line being answered is done. */
  signal?: AbortSignal;
  /** Where replies' charts are written. @default a new folder in the system's temporary folder */
  files?: SavedFiles;
}): Promise<void> {
  const { ctx, input, output } = options;
  const isTty = (stream: Readable | Writable) => Boolean((stream as { isTTY?: boolean }).isTTY);
  const palette = (options.colour ?? isTty(output)) ? COLOUR : PLAIN;
  const interactive = options.interactive ?? isTty(input);
  const print = (text: string) => output.write(`${text}\n`);
  const identity: ConsoleIdentity = {
    userId: 'console',
    userName: 'console',
    guildId: 'console',
    channelId: 'console',
    memberRoleIds: [...ctx.config.MODERATOR_ROLE_IDS],
    memberPermissions: ALL_PERMISSIONS,
  };
  let last: Shown | undefined;
  let shown = 0;
  /** A modal waiting for its text (the next line), with the message whose button opened it. */
  let pendingModal: { modal: ModalPayload; message: SourceMessage } | undefined;
  let pressed: SourceMessage | undefined;
  const messageOf = (reply: Shown): SourceMessage => ({
    id: reply.id,
    content: reply.payload.content ?? '',
    embeds: reply.payload.embeds ?? [],
    customIds: buttonsOf(reply.payload).map((button) => button.customId),
  });
  const submit = async (text: string) => {
    const waiting = pendingModal;
    pendingModal = undefined;
    const field = waiting ? fieldOf(waiting.modal) : undefined;
    if (!waiting || !field) return;
    await dispatchInteraction(
      {
        id: `console-modal-${shown}`,
        ...identity,
        kind: 'modal-submit',
        customId: waiting.modal.custom_id,
        fields: { [field.customId]: text },
        message: waiting.message,
      },
      responder,
      ctx,
    );
  };
  const press = async (customId: string, message: SourceMessage) => {
    pressed = message;
    await dispatchInteraction(
      { id: `console-press-${shown}`, ...identity, kind: 'button', customId, message },
      responder,
      ctx,
    );
  };
  const responder = new ConsoleResponder(
    print,
    palette,
    (payload) => {
      shown += 1;
      last = { id: `console-reply-${shown}`, payload };
    },
    options.files ?? new SavedFiles(),
    (modal) => {
      if (pressed) pendingModal = { modal, message: pressed };
    },
  );

  const lines = createInterface({
    input,
    ...(interactive ? { output, prompt: 'newsdesk> ' } : {}),
    terminal: interactive,
  });
  options.signal?.addEventListener('abort', () => lines.close(), { once: true });
  if (interactive) {
    print(
      palette.dim(
        `Newsdesk console: ${ctx.library.engine.articles().length} articles. Type /help, or just ask a question.`,
      ),
    );
    lines.prompt();
  }
  for await (const line of lines) {
    if (pendingModal) {
      if (line.trim().toLowerCase() === '/cancel') {
        pendingModal = undefined;
        print(palette.dim('Cancelled.'));
      } else await submit(line);
      if (interactive) lines.prompt();
      continue;
    }
    const followUp = /^\/followup(?:\s+([\s\S]*))?$/i.exec(line.trim());
    if (followUp) {
      // "Follow up" pressed on the last reply, and its form filled in with the rest of the line.
      const button = last
        ? buttonsOf(last.payload).find((b) => b.customId.startsWith('ask:followup:'))
        : undefined;
      if (!last || !button) print(palette.dim('The last reply has no Follow up button.'));
      else {
        await press(button.customId, messageOf(last));
        if (followUp[1]?.trim()) await submit(followUp[1]);
      }
      if (interactive) lines.prompt();
      continue;
    }
    const action = parseLine(line, ctx.commands, identity);
    if (action.kind === 'quit') break;
    if (action.kind === 'help') print(help(ctx, palette));
    if (action.kind === 'error') print(palette.dim(action.message));
    if (action.kind === 'interaction') {
      const unreadable =
        action.interaction.kind === 'chat-input'
          ? await readLocalFiles(action.interaction.options)
          : undefined;
      if (unreadable) print(palette.dim(unreadable));
      else await dispatchInteraction(action.interaction, responder, ctx);
    }
    if (action.kind === 'press') {
      const button = last ? buttonsOf(last.payload)[action.button - 1] : undefined;
      if (!last || buttonsOf(last.payload).length === 0) print(palette.dim('The last reply has no buttons.'));
      else if (!button) print(palette.dim('There is no such button on the last reply.'));
      else if (button.disabled) print(palette.dim(`"${button.label}" is disabled.`));
      else await press(button.customId, messageOf(last));
    }
    if (interactive) lines.prompt();
  }
  lines.close();
}

function help(ctx: DispatchContext, palette: Palette): string {
  const commands = ctx.commands.all.flatMap((command) => {
    const json = command.data.toJSON();
    // Message commands have no description and are typed as /find.
    if (!('description' in json) || !json.description) return [];
    return [`  ${palette.bold(`/${command.data.name}`)}  ${json.description}`];
  });
  return [
    ...commands,
    `  ${palette.bold('/find <text>')}  check a claim, as "Find coverage" does on a message`,
    `  ${palette.bold('/complete <command> <option> <text>')}  what autocomplete suggests`,
    `  ${palette.bold('/press <n>')}  press button n of the last reply`,
    `  ${palette.bold('/followup <question>')}  a follow-up about the last answer's story, as its Follow up button asks`,
    `  ${palette.bold('/quit')}`,
    markdown(
      'Options go as `name:value`, e.g. `/ask who threatened the mayor? limit:2`. A line without `/` is asked.',
      palette,
    ),
  ].join('\n');
}

/** A modal's one text field: its custom_id, label and description (in a label, as the bot builds them). */
function fieldOf(modal: ModalPayload): { customId: string; label: string; description?: string } | undefined {
  for (const component of modal.components) {
    if (component.type === ComponentType.Label && component.component.type === ComponentType.TextInput) {
      return {
        customId: component.component.custom_id,
        label: component.label,
        ...(component.description ? { description: component.description } : {}),
      };
    }
  }
  return undefined;
}

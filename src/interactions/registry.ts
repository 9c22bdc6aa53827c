import type { AnyCommand, ButtonHandler, ModalHandler } from './command.ts';

/** The bot's commands, looked up by name and by button custom_id prefix. */
export class CommandRegistry {
  readonly #byName = new Map<string, AnyCommand>();
  readonly #buttons: { prefix: string; handler: ButtonHandler }[] = [];
  readonly #modals: { prefix: string; handler: ModalHandler }[] = [];

  /** Throws if two commands share a name or two button handlers share a prefix: a wiring mistake. */
  constructor(commands: readonly AnyCommand[]) {
    for (const command of commands) {
      const name = command.data.name;
      if (this.#byName.has(name)) throw new Error(`CommandRegistry: duplicate command name "${name}"`);
      this.#byName.set(name, command);
      for (const [prefix, handler] of Object.entries(command.buttons ?? {})) {
        if (this.#buttons.some((entry) => entry.prefix === prefix)) {
          throw new Error(`CommandRegistry: duplicate button prefix "${prefix}"`);
        }
        this.#buttons.push({ prefix, handler });
      }
      for (const [prefix, handler] of Object.entries(command.modals ?? {})) {
        if (this.#modals.some((entry) => entry.prefix === prefix)) {
          throw new Error(`CommandRegistry: duplicate modal prefix "${prefix}"`);
        }
        this.#modals.push({ prefix, handler });
      }
    }
    // Longest prefix first, so `ask:more` wins over a hypothetical `ask`.
    this.#buttons.sort((a, b) => b.prefix.length - a.prefix.length);
    this.#modals.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  get all(): readonly AnyCommand[] {
    return [...this.#byName.values()];
  }

  command(name: string): AnyCommand | undefined {
    return this.#byName.get(name);
  }

  /** The handler for a custom_id and the custom_id's arguments after its prefix. */
  button(customId: string): { prefix: string; handler: ButtonHandler; args: string[] } | undefined {
    return byPrefix(this.#buttons, customId);
  }

  /** The handler for a modal's custom_id and the custom_id's arguments after its prefix. */
  modal(customId: string): { prefix: string; handler: ModalHandler; args: string[] } | undefined {
    return byPrefix(this.#modals, customId);
  }

  /** The JSON bodies to register with Discord (`PUT /applications/{id}/commands`). */
  definitions() {
    return this.all.map((command) => command.data.toJSON());
  }
}

function byPrefix<Handler>(
  entries: readonly { prefix: string; handler: Handler }[],
  customId: string,
): { prefix: string; handler: Handler; args: string[] } | undefined {
  // A signed payload is Discord's shape only by its signature: a custom_id that is not text is no button of ours.
  if (typeof customId !== 'string') return undefined;
  for (const { prefix, handler } of entries) {
    if (customId === prefix) return { prefix, handler, args: [] };
    if (customId.startsWith(`${prefix}:`))
      return { prefix, handler, args: customId.slice(prefix.length + 1).split(':') };
  }
  return undefined;
}

import { once } from 'node:events';
import {
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { type DispatchContext, dispatchInteraction } from '../../interactions/dispatch.ts';
import { tokenRefused } from '../token-refused.ts';
import { DiscordJsResponder } from './discord-js-responder.ts';
import { fromDiscordJs } from './from-discord-js.ts';

/** A logged-in discord.js client answering interactions; `stop()` disconnects it cleanly. */
export interface GatewayBot {
  client: Client<true>;
  /** Resolves when every interaction being answered has finished, after it stops taking new ones. */
  stop(): Promise<void>;
}

/**
 * Logs in to Discord's gateway (or a stand-in: REST, and through it the gateway URL, come from
 * `apiBase`) and dispatches every interaction. Only the Guilds intent: slash commands, buttons and
 * context menus arrive as interactions, which need no privileged or message intents.
 */
export async function startGatewayBot(options: {
  token: string;
  /** Discord's REST base, e.g. `https://discord.com/api`. */
  apiBase: string;
  ctx: DispatchContext;
}): Promise<GatewayBot> {
  const { ctx } = options;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: { api: options.apiBase },
    // Belt and braces: every reply already carries `allowed_mentions: { parse: [] }`.
    allowedMentions: { parse: [] },
  });
  const inFlight = new Set<Promise<unknown>>();
  let accepting = true;

  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (!accepting) return;
    let incoming: ReturnType<typeof fromDiscordJs>;
    try {
      incoming = fromDiscordJs(interaction);
    } catch (error) {
      // Options shaped unlike anything Discord sends: nothing sensible to answer, and no crash.
      ctx.logger.warn('interaction payload not understood', {
        interaction: interaction.id,
        reason: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    if (!incoming) return;
    const responder = new DiscordJsResponder(
      interaction as
        | ChatInputCommandInteraction
        | MessageContextMenuCommandInteraction
        | ButtonInteraction
        | ModalSubmitInteraction
        | AutocompleteInteraction,
    );
    const started = performance.now();
    const work = dispatchInteraction(incoming, responder, ctx).then((outcome) => {
      ctx.logger.debug('interaction answered', { ...outcome, ms: Math.round(performance.now() - started) });
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  client.on(Events.Error, (error) => ctx.logger.error('discord.js client error', { error }));
  client.on(Events.ShardDisconnect, (event, shard) =>
    ctx.logger.warn('gateway disconnected', { code: event.code, shard }),
  );

  const ready = once(client, Events.ClientReady);
  try {
    await client.login(options.token);
    await ready;
  } catch (error) {
    // A rejected token or an unreachable gateway: leave no sockets or timers behind.
    await client.destroy();
    throw tokenRefused(error) ?? error;
  }
  ctx.logger.info('connected to the gateway', { user: client.user?.tag, guilds: client.guilds.cache.size });

  return {
    client: client as Client<true>,
    async stop() {
      accepting = false;
      await Promise.allSettled([...inFlight]);
      await client.destroy();
    },
  };
}

import type { Client } from 'discord.js';
import { type AuditSink, formatAuditEntry } from './audit-log.ts';

/**
 * An audit sink posting one line per corpus change to AUDIT_CHANNEL_ID, with mentions disabled (the
 * line names the moderator as a mention, which shows their name but pings nobody).
 */
export function auditChannelSink(client: Client, channelId: string): AuditSink {
  return async (entry) => {
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable())
      throw new Error(`auditChannelSink: channel ${channelId} is not a channel the bot can post in`);
    await channel.send({ content: formatAuditEntry(entry), allowedMentions: { parse: [] } });
  };
}

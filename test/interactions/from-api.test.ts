import type { APIInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { fromApiInteraction } from '../../src/interactions/from-api.ts';
import { userMessage } from '../support/stand-in-discord/fixtures.ts';
import {
  autocomplete,
  button,
  chatInput,
  messageCommand,
  modalSubmit,
} from '../support/stand-in-discord/interactions.ts';

const sender = {
  userId: '800000000000000001',
  roles: ['400000000000000001'],
  permissions: String(1024 | 32),
};

describe('fromApiInteraction', () => {
  it('reads a modal submission: its custom_id, each text field (in a label or an action row) and its message', () => {
    const message = userMessage('600000000000000009', 'an answer', {
      id: '1',
      username: 'bot',
      discriminator: '0',
      global_name: null,
      avatar: null,
    });
    const raw = modalSubmit(message, 'followup:a#2', { question: 'how many?' }, sender);
    expect(fromApiInteraction(raw)).toMatchObject({
      kind: 'modal-submit',
      customId: 'followup:a#2',
      fields: { question: 'how many?' },
      message: { id: '600000000000000009' },
    });
    const rows = {
      ...raw,
      data: {
        custom_id: 'x',
        components: [{ type: 1, components: [{ type: 4, custom_id: 'q', value: 'v' }] }],
      },
    };
    expect(fromApiInteraction(rows as unknown as APIInteraction)).toMatchObject({ fields: { q: 'v' } });
  });

  it('says which channel a thread is in, and nothing for a channel, even one in a category', () => {
    expect(
      fromApiInteraction(chatInput('ask', { question: 'who?' }, sender, { threadId: '900' })),
    ).toMatchObject({
      channelId: '900',
      parentChannelId: '300000000000000001',
    });
    const inCategory = chatInput('ask', { question: 'who?' }, sender) as APIInteraction & {
      channel: Record<string, unknown>;
    };
    // A text channel's parent_id is its category: its settings are its own, not the category's.
    inCategory.channel = { id: '300000000000000001', type: 0, name: 'news', parent_id: '300000000000000077' };
    expect(fromApiInteraction(inCategory)).toMatchObject({ parentChannelId: null });
  });

  it('reads a slash command with its options, member roles and permissions', () => {
    const incoming = fromApiInteraction(
      chatInput('ask', { question: 'who?', limit: 2, private: true }, sender),
    );
    expect(incoming).toMatchObject({
      kind: 'chat-input',
      commandName: 'ask',
      options: { question: 'who?', limit: 2, private: true },
      userId: sender.userId,
      guildId: '200000000000000001',
      memberRoleIds: ['400000000000000001'],
      memberPermissions: 1056n,
    });
  });

  it('flattens a subcommand and resolves an attachment option', () => {
    const raw = chatInput('corpus', {}, sender) as APIInteraction & { data: Record<string, unknown> };
    raw.data.options = [{ name: 'add', type: 1, options: [{ name: 'file', type: 11, value: '42' }] }];
    raw.data.resolved = {
      attachments: {
        42: {
          id: '42',
          filename: 'story.md',
          url: 'https://cdn.example/story.md',
          proxy_url: 'x',
          size: 120,
          content_type: 'text/markdown',
        },
      },
    };
    expect(fromApiInteraction(raw)).toMatchObject({
      kind: 'chat-input',
      options: {
        subcommand: 'add',
        file: {
          kind: 'attachment',
          id: '42',
          filename: 'story.md',
          url: 'https://cdn.example/story.md',
          size: 120,
          contentType: 'text/markdown',
        },
      },
    });
  });

  it('reads the channel a thread is in, and the custom_ids of a pressed message’s buttons', () => {
    const inThread = chatInput('ask', { question: 'who?' }, sender) as APIInteraction & {
      channel: Record<string, unknown>;
    };
    inThread.channel = { id: '300000000000000009', type: 11, parent_id: '300000000000000001', name: 'who?' };
    expect(fromApiInteraction(inThread)).toMatchObject({
      channelId: '300000000000000009',
      parentChannelId: '300000000000000001',
    });
    expect(fromApiInteraction(chatInput('ask', { question: 'who?' }, sender))).toMatchObject({
      parentChannelId: null,
    });
    const message = {
      ...userMessage('900', 'answer', {
        id: '1',
        username: 'bot',
        discriminator: '0',
        global_name: null,
        avatar: null,
      }),
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 2, label: 'Helpful', custom_id: 'ask:vote:1:h:a#1' },
            { type: 2, style: 5, label: 'Read', url: 'https://example.com' },
            { type: 2, style: 2, label: 'Dismiss', custom_id: 'ask:dismiss:800000000000000001' },
          ],
        },
      ],
    } as Parameters<typeof button>[0];
    expect(fromApiInteraction(button(message, 'ask:dismiss:800000000000000001', sender))).toMatchObject({
      kind: 'button',
      message: { id: '900', customIds: ['ask:vote:1:h:a#1', 'ask:dismiss:800000000000000001'] },
    });
  });

  it('reads which option autocomplete is for', () => {
    expect(
      fromApiInteraction(autocomplete('ask', { question: 'q', source: 'cal' }, 'source', sender)),
    ).toMatchObject({
      kind: 'autocomplete',
      focused: { name: 'source', value: 'cal' },
      options: { question: 'q', source: 'cal' },
    });
  });

  it('reads a button press with the message it was pressed on', () => {
    const message = userMessage('600000000000000001', 'hello', {
      id: '1',
      username: 'a',
      discriminator: '0',
      global_name: null,
      avatar: null,
    });
    message.embeds = [{ footer: { text: 'Asked: who?' } }];
    expect(fromApiInteraction(button(message, 'ask:more:3:3', sender))).toMatchObject({
      kind: 'button',
      customId: 'ask:more:3:3',
      message: { id: '600000000000000001', content: 'hello', embeds: [{ footer: { text: 'Asked: who?' } }] },
    });
  });

  it('reads the target of a message context-menu command', () => {
    const target = userMessage('600000000000000002', 'the mayor was threatened', {
      id: '1',
      username: 'a',
      discriminator: '0',
      global_name: null,
      avatar: null,
    });
    expect(fromApiInteraction(messageCommand('Find coverage', target, sender))).toMatchObject({
      kind: 'message-context-menu',
      commandName: 'Find coverage',
      targetMessage: { id: '600000000000000002', content: 'the mayor was threatened' },
    });
  });

  it('gives no guild, roles or permissions in a direct message', () => {
    const raw = chatInput('about', {}, sender) as unknown as Record<string, unknown>;
    raw.user = (raw.member as { user: unknown }).user;
    delete raw.member;
    delete raw.guild_id;
    expect(fromApiInteraction(raw as unknown as APIInteraction)).toMatchObject({
      guildId: null,
      memberRoleIds: [],
      memberPermissions: null,
    });
  });

  it('returns null for what the bot does not handle (PING)', () => {
    expect(
      fromApiInteraction({
        id: '1',
        application_id: '2',
        type: 1,
        token: 't',
        version: 1,
      } as unknown as APIInteraction),
    ).toBeNull();
  });
});

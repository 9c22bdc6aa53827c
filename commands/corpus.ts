import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { ARTICLE_FILE_FORMATS } from '../src/corpus/formats/index.ts';
import { CorpusStoreError } from '../src/corpus-editing/corpus-store.ts';
import { AttachmentDownloadError, downloadAttachment } from '../src/corpus-editing/download-attachment.ts';
import { fetchWebArticle, importRefusal } from '../src/import/web-article.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import type { CorpusAdministration } from '../src/interactions/library-view.ts';
import {
  CORPUS_BUTTONS,
  renderAddPreview,
  renderApplying,
  renderCancelled,
  renderEditOutcome,
  renderRemovePreview,
  renderWriteRefused,
} from '../src/interactions/render/corpus.ts';
import type { Actor } from '../src/lifecycle/audit-log.ts';

const Attachment = z.object({
  kind: z.literal('attachment'),
  filename: z.string().min(1),
  // Discord's CDN; `data:` is how the local console hands over a file the operator named by path.
  url: z.url({ protocol: /^(https?|data)$/ }),
  size: z.number().int().min(0),
  contentType: z.string().nullable(),
});

const Options = z.discriminatedUnion('subcommand', [
  z.object({
    subcommand: z.literal('add'),
    file: Attachment.optional(),
    url: z.string().trim().min(1).max(2000).optional(),
  }),
  z.object({ subcommand: z.literal('remove'), id: z.string().trim().min(1).max(100) }),
]);

/** `/corpus add` and `/corpus remove`: moderators edit the corpus, previewing and confirming each change. */
export default {
  data: new SlashCommandBuilder()
    .setName('corpus')
    .setDescription('Add, replace or remove articles (moderators)')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('add')
        .setDescription(
          `Add an article (or replace the same one) from a ${either(ARTICLE_FILE_FORMATS.map((f) => f.extensions[0] ?? ''))} file or a link`,
        )
        .addAttachmentOption((o) =>
          o.setName('file').setDescription(
            either(
              ARTICLE_FILE_FORMATS.map((f) => f.description),
              ', or ',
            ),
          ),
        )
        .addStringOption((o) =>
          o.setName('url').setDescription('A link to a news article on the web').setMaxLength(2000),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('remove')
        .setDescription('Remove an article')
        .addStringOption((o) =>
          o
            .setName('id')
            .setDescription('The article to remove')
            .setRequired(true)
            .setAutocomplete(true)
            .setMaxLength(100),
        ),
    ),
  options: Options,
  access: 'moderators',
  isPrivate: () => true,
  async execute(ctx, options, interaction) {
    const corpus = requireCorpus(ctx);
    const actor = actorOf(interaction);
    return withUserErrors(async () => {
      if (options.subcommand === 'remove') {
        const { token, prepared } = corpus.editor.previewRemove(actor, options.id);
        return renderRemovePreview(prepared.article, prepared.fileName, token);
      }
      const upload =
        options.url !== undefined && options.file === undefined
          ? await webUpload(ctx, options.url)
          : await attachmentUpload(options.file, options.url, corpus.maxArticleBytes);
      const { token, prepared } = await corpus.editor.previewAdd(actor, upload.name, upload.bytes);
      return renderAddPreview(prepared.kind, prepared.article, prepared.fileName, token);
    });
  },
  autocomplete(ctx, focused) {
    if (focused.name !== 'id') return [];
    return ctx.library.engine
      .suggestArticles(focused.value, 25)
      .map((article) => ({ name: `${article.title} (${article.id})`.slice(0, 100), value: article.id }));
  },
  buttons: {
    [CORPUS_BUTTONS.confirm]: {
      access: 'moderators',
      // Writing and reloading a large corpus takes far longer than Discord's 3 seconds: acknowledge at
      // once, show progress on the preview, and end by editing it with the outcome.
      defer: 'always',
      async execute(ctx, args, interaction, progress) {
        const corpus = requireCorpus(ctx);
        try {
          const outcome = await corpus.editor.confirm(actorOf(interaction), args.join(':'), {
            onProgress: (step) => progress(renderApplying(step, interaction.message.embeds)),
          });
          return { update: renderEditOutcome(outcome) };
        } catch (error) {
          // A refused write is this confirmation's outcome: it replaces the preview (already showing
          // "Writing the file…") rather than leaving it stale beside a separate error message.
          if (error instanceof CorpusStoreError) return { update: renderWriteRefused(error.message) };
          throw error;
        }
      },
    },
    [CORPUS_BUTTONS.cancel]: {
      access: 'moderators',
      execute(ctx, args, interaction) {
        requireCorpus(ctx).editor.cancel(actorOf(interaction), args.join(':'));
        return { update: renderCancelled() };
      },
    },
  },
} satisfies Command<typeof Options>;

type Upload = { name: string; bytes: Uint8Array };

/** `/corpus add url:`: the page fetched safely and extracted, as the Markdown file it would be stored as. */
async function webUpload(ctx: CommandContext, url: string): Promise<Upload> {
  const article = await fetchWebArticle(url, {
    allowPrivate: ctx.config.FETCH_ALLOW_PRIVATE,
    known: ctx.library.engine.articles(),
  });
  return { name: article.fileName, bytes: new TextEncoder().encode(article.markdown) };
}

async function attachmentUpload(
  file: z.infer<typeof Attachment> | undefined,
  url: string | undefined,
  maxBytes: number,
): Promise<Upload> {
  if (file === undefined || url !== undefined) {
    throw new UserError(
      'file-or-url',
      'Give either a `file` to upload or a `url` to fetch (one of the two).',
    );
  }
  if (file.size > maxBytes) {
    throw new UserError(
      'too-large',
      `The file is ${Math.round(file.size / 1024)} KiB; articles may be at most ${Math.round(maxBytes / 1024)} KiB.`,
    );
  }
  return { name: file.filename, bytes: await downloadAttachment(file.url, { maxBytes }) };
}

function requireCorpus(ctx: CommandContext): CorpusAdministration {
  if (!ctx.corpus) {
    throw new UserError('corpus-read-only', 'This bot was started without a corpus folder it can edit.');
  }
  return ctx.corpus;
}

/** `a or b`, `a, b or c`: the formats `/corpus add` accepts, for its help text. */
function either(items: readonly string[], lastSeparator = ' or '): string {
  return items.length < 2
    ? items.join('')
    : `${items.slice(0, -1).join(', ')}${lastSeparator}${items.at(-1)}`;
}

/** Who is editing, for the audit log: the id decides, the name is for people reading it. */
function actorOf(interaction: { userId: string; userName?: string }): Actor {
  return { id: interaction.userId, name: interaction.userName ?? `user ${interaction.userId}` };
}

/** Store and download refusals are the moderator's to fix: shown to them privately, as written. */
async function withUserErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CorpusStoreError || error instanceof AttachmentDownloadError) {
      throw new UserError(error.code, error.message);
    }
    const refusal = importRefusal(error);
    if (refusal) throw new UserError(refusal.code, `The link was not added: ${refusal.message}`);
    throw error;
  }
}

// `npx tsx scripts/answer-picture.ts [question]`: docs/answer.png, the bot's real reply to an /ask on
// the bundled corpus as a member sees it in Discord. The reply is the payload the bot sends (the same
// start-up and dispatch as `npm start`); it is drawn as Discord draws a message with embeds and buttons
// (dark theme), in headless Chromium (`apt-get install chromium`). Run it again after a change to
// the answers or their rendering.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';
import { bootstrap } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { dispatchInteraction } from '../src/interactions/dispatch.ts';
import type { ReplyPayload, Responder } from '../src/interactions/incoming.ts';
import { silentLogger } from '../src/logging/logger.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs', 'answer.png');
const question = process.argv[2] ?? 'who threatened the mayor of Teteghem?';

/** The reply the bot sends to a member's `/ask`, as the gateway bot starts (community records on). */
async function replyTo(text: string, dataDir: string): Promise<ReplyPayload> {
  const config = loadConfig({
    CORPUS_PATH: path.join(ROOT, 'corpus'),
    INDEX_CACHE_DIR: '',
    DATA_DIR: dataDir,
  });
  const app = await bootstrap({ config, logger: silentLogger });
  let sent: ReplyPayload | undefined;
  const keep = async (payload: ReplyPayload) => {
    sent = payload;
  };
  const responder: Responder = {
    reply: keep,
    editReply: keep,
    update: async () => undefined,
    defer: async () => undefined,
    deferUpdate: async () => undefined,
    autocomplete: async () => undefined,
  };
  await dispatchInteraction(
    {
      kind: 'chat-input',
      id: 'picture',
      commandName: 'ask',
      options: { question: text },
      userId: '800000000000000001',
      guildId: '900000000000000001',
      channelId: '900000000000000002',
      memberRoleIds: [],
      memberPermissions: 1024n,
    },
    responder,
    app.ctx,
  );
  app.records.stop();
  app.library.engine.close();
  if (!sent) throw new Error('answer-picture: the bot sent no reply');
  return sent;
}

const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Discord's markdown as the client draws it: quotes, bold, italics, code, links, small text, escapes. */
function markdown(text: string): string {
  const held: string[] = [];
  const hold = (piece: string) => `\u{f0000}${held.push(piece) - 1}\u{f0001}`;
  const inline = (line: string) =>
    html(line.replace(/\\([\\*_`~|>[\]()#-])/g, (_m, char: string) => hold(html(char))))
      .replace(/`([^`]+)`/g, (_m, code: string) => hold(`<code>${code}</code>`))
      .replace(/\[([^\]]+)\]\(&lt;?([^)]+?)(&gt;)?\)/g, '<a>$1</a>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>')
      .replace(/__([^_]+)__/g, '<u>$1</u>');
  const lines = text.split('\n').map((line) => {
    if (line.startsWith('> ')) return `<blockquote>${inline(line.slice(2))}</blockquote>`;
    if (line.startsWith('-# ')) return `<div class="small">${inline(line.slice(3))}</div>`;
    return `<div>${inline(line) || '&nbsp;'}</div>`;
  });
  return lines
    .join('')
    .replace(/\u{f0000}(\d+)\u{f0001}/gu, (_m, index: string) => held[Number(index)] ?? '');
}

function embedHtml(embed: APIEmbed): string {
  const colour = `#${(embed.color ?? 0x1e1f22).toString(16).padStart(6, '0')}`;
  return `<div class="embed" style="border-left-color:${colour}">
    ${embed.title ? `<div class="title${embed.url ? ' link' : ''}">${markdown(embed.title)}</div>` : ''}
    ${embed.description ? `<div class="description">${markdown(embed.description)}</div>` : ''}
    ${(embed.fields ?? []).map((field) => `<div class="field"><b>${markdown(field.name)}</b>${markdown(field.value)}</div>`).join('')}
    ${embed.footer ? `<div class="footer">${html(embed.footer.text)}</div>` : ''}
  </div>`;
}

const BUTTON_STYLES: Record<number, string> = {
  1: 'primary',
  2: 'secondary',
  3: 'success',
  4: 'danger',
  5: 'secondary',
};

function rowsHtml(rows: readonly APIActionRowComponent<APIComponentInMessageActionRow>[]): string {
  return rows
    .map(
      (row) =>
        `<div class="row">${row.components
          .map((button) =>
            'label' in button && 'style' in button
              ? `<span class="button ${BUTTON_STYLES[button.style] ?? 'secondary'}">${html(button.label ?? '')}</span>`
              : '',
          )
          .join('')}</div>`,
    )
    .join('');
}

function page(payload: ReplyPayload, asked: string): string {
  const rows = (payload.components ?? []) as APIActionRowComponent<APIComponentInMessageActionRow>[];
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; background: #313338; color: #dbdee1; font: 16px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Arial, sans-serif; width: 760px; }
  .message { padding: 16px 16px 20px 72px; position: relative; }
  .avatar { position: absolute; left: 16px; top: 40px; width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; }
  .name { color: #f2f3f5; font-weight: 600; } .app { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; border-radius: 3px; padding: 1px 4px; margin: 0 6px; vertical-align: 2px; }
  .time { color: #949ba4; font-size: 12px; }
  .used { color: #949ba4; font-size: 14px; margin: 0 0 4px 0; } .used b { color: #c9cdfb; font-weight: 500; }
  .embed { background: #2b2d31; border-left: 4px solid; border-radius: 4px; padding: 8px 16px 12px 12px; margin-top: 8px; max-width: 640px; font-size: 14px; }
  .title { color: #f2f3f5; font-weight: 600; font-size: 16px; margin: 4px 0 6px; } .title.link { color: #00a8fc; }
  blockquote { margin: 0 0 4px; border-left: 4px solid #4e5058; padding: 0 8px 0 12px; }
  code { background: #1e1f22; border-radius: 3px; padding: 0 3px; font: 85% Consolas, "DejaVu Sans Mono", monospace; }
  .small { color: #949ba4; font-size: 12px; } a { color: #00a8fc; }
  .footer { color: #b5bac1; font-size: 12px; margin-top: 8px; white-space: pre-line; }
  .row { margin-top: 8px; display: flex; gap: 8px; flex-wrap: wrap; }
  .button { border-radius: 3px; padding: 2px 16px; height: 32px; display: inline-flex; align-items: center; font-size: 14px; font-weight: 500; color: #fff; }
  .primary { background: #5865f2; } .secondary { background: #4e5058; } .success { background: #248046; } .danger { background: #da373c; }
  </style></head><body><div class="message">
  <div class="used">↱ member used <b>/ask</b> question: ${html(asked)}</div>
  <div class="avatar">N</div>
  <div><span class="name">Newsdesk</span><span class="app">APP</span><span class="time">Today at 12:00</span></div>
  <div class="content">${markdown(payload.content ?? '')}</div>
  ${(payload.embeds ?? []).map(embedHtml).join('')}
  ${rowsHtml(rows)}
  </div></body></html>`;
}

const work = await mkdtemp(path.join(tmpdir(), 'newsdesk-picture-'));
try {
  const payload = await replyTo(question, path.join(work, 'data'));
  const file = path.join(work, 'answer.html');
  await writeFile(file, page(payload, question));
  // Tall enough for three results; Chromium cuts the picture at the window's size.
  execFileSync(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${path.join(work, 'chromium')}`,
      '--window-size=760,740',
      `--screenshot=${OUT}`,
      `file://${file}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  process.stdout.write(`${path.relative(ROOT, OUT)}: the reply to /ask ${question}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
process.exit(0);

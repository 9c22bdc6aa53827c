import type { APIAttachment, APIMessage } from 'discord.js';
import { expect } from 'vitest';
import { decodePng } from '../support/png.ts';
import type { Exchange, Upload } from '../support/stand-in-discord/server.ts';
import { textOf } from './harness.ts';

/** What a member's client gets of a reply's chart: the upload, the message's attachment, and the PNG it shows. */
export async function chartOf(exchange: Exchange, files: Upload[], data: Record<string, unknown>) {
  expect(files).toHaveLength(1);
  const [upload] = files;
  const message = exchange.message as APIMessage;
  const attachment = message.attachments.find((a) => a.filename === upload!.filename) as APIAttachment;
  // As a member's client does: the embed shows `attachment://…`, fetched from the attachment's URL.
  const embeds = data.embeds as { image?: { url: string } }[];
  expect(embeds[0]?.image?.url).toBe(`attachment://${upload!.filename}`);
  const fetched = Buffer.from(await (await fetch(attachment.url)).arrayBuffer());
  expect(fetched.equals(upload!.data)).toBe(true);
  return { upload: upload!, attachment, png: await decodePng(fetched), alt: attachment.description ?? '' };
}

/** `Totals: A 3, B 2 (5 in all).` or `5 in all.` in a chart's alt text: what its bars add up to. */
export function barsTotal(alt: string): number {
  const total = /(\d+) in all\)?\./.exec(alt);
  if (!total) throw new Error(`no total in the alt text: ${alt}`);
  return Number(total[1]);
}

/** `Page 1 of 2 · 9 dated articles, 1 undated, oldest first`: the articles the timeline lists. */
export function listed(data: Record<string, unknown>): { dated: number; undated: number } {
  const footer = /· (\d+) dated articles?(?:, (\d+) undated)?, oldest first/.exec(textOf(data));
  if (!footer) throw new Error(`no counts in the footer: ${textOf(data)}`);
  return { dated: Number(footer[1]), undated: Number(footer[2] ?? 0) };
}

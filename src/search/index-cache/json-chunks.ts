import { yieldToEventLoop } from '../../event-loop.ts';

/**
 * Milliseconds of serializing between two yields. Well under the 50 ms a heartbeat or a question can
 * wait without anyone noticing.
 */
const BUDGET_MS = 8;

/**
 * Containers with fewer entries than this (below the top two levels) are handed to the native
 * `JSON.stringify` whole: fast, and too small to stall. Larger ones are walked entry by entry.
 */
const SMALL_CONTAINER = 1024;

/** Characters handed to the sink at a time. */
const CHUNK_CHARS = 1 << 20;

/**
 * `JSON.stringify` for large plain data (objects, arrays, strings, numbers, booleans, null), produced
 * in chunks handed to `sink`, with a yield to the event loop whenever the time budget is spent, so
 * persisting a big index neither stalls the bot nor builds one giant string. The concatenated output
 * is identical to `JSON.stringify(value)` for such data.
 */
export async function writeJsonYielding(
  value: unknown,
  sink: (chunk: string) => Promise<void>,
): Promise<void> {
  let parts: string[] = [];
  let buffered = 0;
  let deadline = performance.now() + BUDGET_MS;

  const push = (...pieces: string[]) => {
    for (const piece of pieces) {
      parts.push(piece);
      buffered += piece.length;
    }
  };
  const breathe = async () => {
    if (buffered >= CHUNK_CHARS) {
      const chunk = parts.join('');
      parts = [];
      buffered = 0;
      await sink(chunk);
    }
    if (performance.now() > deadline) {
      await yieldToEventLoop();
      deadline = performance.now() + BUDGET_MS;
    }
  };

  const write = async (node: unknown, depth: number): Promise<void> => {
    if (
      node !== null &&
      typeof node === 'object' &&
      typeof (node as { toJSON?: unknown }).toJSON === 'function'
    ) {
      node = (node as { toJSON(): unknown }).toJSON();
    }
    if (node === null || typeof node !== 'object' || (depth >= 2 && entryCount(node) < SMALL_CONTAINER)) {
      push(JSON.stringify(node) ?? 'null');
      await breathe();
      return;
    }
    if (Array.isArray(node)) {
      push('[');
      for (let i = 0; i < node.length; i++) {
        if (i > 0) push(',');
        const item: unknown = node[i];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') push('null');
        else await write(item, depth + 1);
      }
      push(']');
      return;
    }
    push('{');
    let first = true;
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const item: unknown = (node as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      await write(item, depth + 1);
    }
    push('}');
  };

  await write(value, 0);
  if (parts.length > 0) await sink(parts.join(''));
}

/** The whole JSON text at once; for tests and small values. */
export async function stringifyYielding(value: unknown): Promise<string> {
  const chunks: string[] = [];
  await writeJsonYielding(value, async (chunk) => void chunks.push(chunk));
  return chunks.join('');
}

function entryCount(node: object): number {
  if (Array.isArray(node)) return node.length;
  let count = 0;
  for (const _key in node) {
    if (++count >= SMALL_CONTAINER) break;
  }
  return count;
}

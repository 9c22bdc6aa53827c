import type { z } from 'zod';

/** A cache file's trailer read and checked, or why it cannot be. */
export type TrailerRead<T> =
  | { status: 'read'; trailer: T; newline: number }
  | { status: 'corrupt'; reason: string };

/**
 * The trailer on the last line of a cache file's bytes (the whole file, or its last bytes alone): the
 * JSON after the last newline, checked against `schema` (each file's own fields), and where that
 * newline is (the body ends there). Index files and shared corpus files both end so.
 */
export function parseTrailer<T>(bytes: Uint8Array, schema: z.ZodType<T>): TrailerRead<T> {
  const newline = bytes.lastIndexOf(0x0a);
  if (newline < 0) return { status: 'corrupt', reason: 'no trailer' };
  let json: unknown;
  try {
    json = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', newline + 1),
    );
  } catch {
    return { status: 'corrupt', reason: 'trailer is not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
    return { status: 'corrupt', reason: `trailer is not of this kind of file${at}` };
  }
  return { status: 'read', trailer: parsed.data, newline };
}

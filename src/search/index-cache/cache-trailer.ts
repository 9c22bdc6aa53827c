/**
 * The trailer on the last line of a cache file's bytes (the whole file, or its last bytes alone): the
 * JSON after the last newline, and where that newline is (the body ends there). Index files and shared
 * corpus files both end so; each checks the fields of its own trailer.
 */
export function parseTrailer(
  bytes: Uint8Array,
): { status: 'read'; trailer: unknown; newline: number } | { status: 'corrupt'; reason: string } {
  const newline = bytes.lastIndexOf(0x0a);
  if (newline < 0) return { status: 'corrupt', reason: 'no trailer' };
  try {
    return {
      status: 'read',
      trailer: JSON.parse(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', newline + 1),
      ),
      newline,
    };
  } catch {
    return { status: 'corrupt', reason: 'trailer is not JSON' };
  }
}

import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { z } from 'zod';
import type { SharedCorpus } from '../../corpus/shared-corpus.ts';
import type { ChunkProducer } from '../../files/atomic-write.ts';
import { parseTrailer } from './cache-trailer.ts';

/** Bump when the layout below changes. */
const LAYOUT = 1;

/**
 * A shared corpus as a file: its three shared buffers back to back (the passages' text, their offsets,
 * the article lines), a newline, then this trailer on the last line. The bot's start reads the buffers
 * straight into shared memory instead of reading and parsing the corpus files, when `files` is the
 * `CorpusDigest` of those files as they are now.
 */
const SHARED_CORPUS_TRAILER = z.object({
  layout: z.number(),
  /** The offsets are Uint32 in this machine's byte order. */
  endianness: z.enum(['LE', 'BE']),
  /** The `CorpusDigest` of the files the corpus was read from. */
  files: z.string(),
  version: z.string(),
  skipped: z.array(z.string()).readonly().optional(),
  textBytes: z.number(),
  offsetsBytes: z.number(),
  articlesBytes: z.number(),
  /** sha256 of everything above but itself and the three buffers: a damaged file is found before it serves. */
  checksum: z.string(),
});
type SharedCorpusTrailer = z.infer<typeof SHARED_CORPUS_TRAILER>;

/** The trailer's length is bounded; it is read from the file's last bytes. */
const TRAILER_READ_BYTES = 64 * 1024;

/** What reading a shared corpus file found. */
export type SharedCorpusRead =
  | { status: 'read'; shared: SharedCorpus }
  | { status: 'miss' }
  | { status: 'corrupt'; file: string; reason: string };

function checksumOf(trailer: Omit<SharedCorpusTrailer, 'checksum'>, buffers: Uint8Array[]): string {
  const { files, version, skipped, textBytes, offsetsBytes, articlesBytes } = trailer;
  const hash = createHash('sha256').update(
    JSON.stringify([LAYOUT, files, version, skipped ?? null, textBytes, offsetsBytes, articlesBytes]),
  );
  for (const buffer of buffers) hash.update(buffer);
  return hash.digest('hex');
}

/** The bytes of a shared corpus file (`writeFileAtomic` writes them), for the files of digest `files`. */
export function sharedCorpusFile(shared: SharedCorpus, files: string): ChunkProducer {
  const buffers = [shared.text, shared.offsets, shared.articles].map((buffer) => new Uint8Array(buffer));
  const [text, offsets, articles] = buffers as [Uint8Array, Uint8Array, Uint8Array];
  const described = {
    layout: LAYOUT,
    endianness: endianness(),
    files,
    version: shared.version,
    ...(shared.skipped ? { skipped: shared.skipped } : {}),
    textBytes: text.byteLength,
    offsetsBytes: offsets.byteLength,
    articlesBytes: articles.byteLength,
  };
  const trailer: SharedCorpusTrailer = { ...described, checksum: checksumOf(described, buffers) };
  return async (write) => {
    for (const buffer of buffers) await write(buffer);
    await write(`\n${JSON.stringify(trailer)}`);
  };
}

/**
 * Reads the shared corpus in `file` into new shared memory, if it was saved from files of digest
 * `files`: checked against its trailer's checksum, so that a file damaged on disk is reported, never
 * served. Whatever the file holds, the answer is a read, a miss or "corrupt", never an exception.
 * `maxBytes` bounds what is read.
 */
export async function readSharedCorpusFile(
  file: string,
  files: string,
  maxBytes: number,
): Promise<SharedCorpusRead> {
  const corrupt = (reason: string): SharedCorpusRead => ({ status: 'corrupt', file, reason });
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'miss' };
    return corrupt(`unreadable: ${String(error)}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return corrupt('not a regular file');
    if (info.size > maxBytes) return corrupt(`${info.size} bytes, more than this corpus can take`);
    const tailBytes = Math.min(info.size, TRAILER_READ_BYTES);
    const tail = Buffer.alloc(tailBytes);
    await readFully(handle, tail, info.size - tailBytes);
    const parsed = parseTrailer(tail, SHARED_CORPUS_TRAILER);
    if (parsed.status === 'corrupt') return corrupt(parsed.reason);
    const { newline, trailer } = parsed;
    if (trailer.layout !== LAYOUT || trailer.endianness !== endianness()) {
      return corrupt('of another layout');
    }
    if (trailer.files !== files) return corrupt('saved from other files than its name says');
    const { textBytes, offsetsBytes, articlesBytes, version } = trailer;
    const sizes = [textBytes, offsetsBytes, articlesBytes];
    if (
      !sizes.every((size) => Number.isSafeInteger(size) && size >= 0) ||
      offsetsBytes % Uint32Array.BYTES_PER_ELEMENT !== 0 ||
      textBytes + offsetsBytes + articlesBytes !== info.size - tailBytes + newline
    ) {
      return corrupt('lengths do not match the file');
    }
    const shared: SharedCorpus = {
      version,
      ...(trailer.skipped ? { skipped: trailer.skipped } : {}),
      text: new SharedArrayBuffer(textBytes),
      offsets: new SharedArrayBuffer(offsetsBytes),
      articles: new SharedArrayBuffer(articlesBytes),
    };
    const buffers = [shared.text, shared.offsets, shared.articles].map((buffer) => new Uint8Array(buffer));
    let at = 0;
    for (const buffer of buffers) {
      if ((await readFully(handle, buffer, at)) !== buffer.byteLength) return corrupt('truncated while read');
      at += buffer.byteLength;
    }
    if (trailer.checksum !== checksumOf(trailer, buffers)) {
      return corrupt('checksum does not match the content');
    }
    return { status: 'read', shared };
  } catch (error) {
    return corrupt(`unreadable: ${String(error)}`);
  } finally {
    await handle.close();
  }
}

/** Reads `into.byteLength` bytes from `position` (fewer at the end of the file); returns how many. */
async function readFully(handle: FileHandle, into: Uint8Array, position: number): Promise<number> {
  let done = 0;
  while (done < into.byteLength) {
    const { bytesRead } = await handle.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

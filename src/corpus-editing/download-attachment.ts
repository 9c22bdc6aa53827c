/** Why an attachment could not be fetched, for logs and tests. */
export type AttachmentDownloadErrorCode = 'too-large' | 'http-status' | 'network' | 'timeout';

/** Why an attachment could not be fetched. */
export class AttachmentDownloadError extends Error {
  override name = 'AttachmentDownloadError';
  constructor(
    readonly code: AttachmentDownloadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link downloadAttachment}. */
export interface DownloadOptions {
  /** Stop reading past this many bytes; the file is refused, not truncated. */
  maxBytes: number;
  /** @default 10 seconds */
  timeoutMs?: number;
}

/**
 * Fetches an uploaded file's bytes from Discord's CDN (or the stand-in's URL in tests). The size Discord
 * announced is not trusted: the body is counted as it arrives and the download stops at `maxBytes`.
 */
export async function downloadAttachment(url: string, options: DownloadOptions): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      redirect: 'follow',
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new AttachmentDownloadError(
      timedOut ? 'timeout' : 'network',
      `Could not download the file (${String(error)}).`,
    );
  }
  if (!response.ok || response.body === null) {
    throw new AttachmentDownloadError(
      'http-status',
      `Could not download the file (HTTP ${response.status}).`,
    );
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of response.body) {
    received += chunk.byteLength;
    if (received > options.maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new AttachmentDownloadError(
        'too-large',
        `The file is larger than ${Math.round(options.maxBytes / 1024)} KiB.`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

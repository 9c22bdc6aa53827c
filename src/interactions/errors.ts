import type { CorpusStoreErrorCode } from '../corpus-editing/corpus-store.ts';
import type { AttachmentDownloadErrorCode } from '../corpus-editing/download-attachment.ts';
import type { importRefusal } from '../import/web-article.ts';

/** What went wrong, for logs, metrics and tests; one code per kind of refusal. */
export type UserErrorCode =
  | 'bad-follow-up'
  | 'bad-option'
  | 'bad-period'
  | 'cannot-delete'
  | 'corpus-read-only'
  | 'empty-message'
  | 'feed-refused'
  | 'feeds-unavailable'
  | 'file-or-url'
  | 'forbidden'
  | 'no-channel'
  | 'no-modal'
  | 'no-more-results'
  | 'no-records'
  | 'not-an-answer-channel'
  | 'not-in-guild'
  | 'not-yours'
  | 'rate-limited'
  | 'records-unavailable'
  | 'outside-channel-outlets'
  | 'reload-unavailable'
  | 'stale-button'
  | 'too-large'
  | 'too-many-channels'
  | 'too-many-digests'
  | 'too-many-outlets'
  | 'unknown-button'
  | 'unknown-citation'
  | 'unknown-command'
  | 'unknown-digest'
  | 'unknown-feed'
  | 'unknown-modal'
  | 'unknown-outlet'
  | 'unknown-source'
  | 'wrong-kind'
  // A moderator's corpus change the store, the download or the link's import refused, as they said it.
  | CorpusStoreErrorCode
  | AttachmentDownloadErrorCode
  | NonNullable<ReturnType<typeof importRefusal>>['code'];

/**
 * A failure the user caused or can fix (no permission, rate limited, unknown citation, bad option).
 * Its message is shown to them privately as it is, so it must be written for them; `code` is for logs
 * and tests.
 */
export class UserError extends Error {
  override name = 'UserError';
  readonly code: UserErrorCode;

  constructor(code: UserErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/**
 * A button or menu whose state cannot be read back (its message was edited, or it predates a change
 * of format): the member is told what to do instead (`run /sources again`).
 */
export function staleButton(instead = 'ask the question again'): UserError {
  return new UserError('stale-button', `This button no longer works; ${instead}.`);
}

/**
 * A failure the user caused or can fix (no permission, rate limited, unknown citation, bad option).
 * Its message is shown to them privately as it is, so it must be written for them; `code` is for logs
 * and tests.
 */
export class UserError extends Error {
  override name = 'UserError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/**
 * A button or menu whose state cannot be read back (its message was edited, or it predates a change
 * of format): the member is told to run `again` (`ask the question`, `/sources`) once more.
 */
export function staleButton(again = 'ask the question'): UserError {
  return new UserError('stale-button', `This button no longer works; ${again} again.`);
}

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

/** Why a URL was not fetched. The message is written for the person who gave the link. */
export class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
  constructor(
    /**
     * For logs and tests: `bad-url`, `scheme`, `private-address`, `dns`, `too-many-redirects`,
     * `http-status`, `too-large`, `timeout`, `content-type`, `network`.
     */
    readonly code: FetchRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

export type FetchRefusalCode =
  | 'bad-url'
  | 'scheme'
  | 'private-address'
  | 'dns'
  | 'too-many-redirects'
  | 'http-status'
  | 'too-large'
  | 'timeout'
  | 'content-type'
  | 'network';

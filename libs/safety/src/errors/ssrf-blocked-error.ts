import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Facts about a refused outbound request. */
export interface SsrfBlockedDetails {
  /** The URL that was refused (credentials removed). */
  url: string;
  /** Why it was refused: an address risk such as `loopback`, or `scheme`, `invalid_url`, `forbidden_hostname`. */
  reason: string;
  /** The resolved (or literal) address that was refused, when there was one. */
  address?: string;
}

/** An outbound request targeted a forbidden scheme, name or address. */
export class SsrfBlockedError extends TalonError {
  declare readonly details: SsrfBlockedDetails;

  constructor(details: SsrfBlockedDetails, cause?: unknown) {
    const target = details.address === undefined ? details.url : `${details.url} (${details.address})`;
    super(
      ERROR_CODES.SSRF_BLOCKED,
      `Outbound request to ${target} refused (${details.reason}). Use a public http(s) URL, or ask an operator to allowlist the range.`,
      { details, cause },
    );
  }
}

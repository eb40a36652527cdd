import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A credential would have gone over plain http to a public host, where anyone on the path can read it. */
export class InsecureCredentialError extends TalonError {
  constructor(url: string, secretNames: readonly string[]) {
    super(
      ERROR_CODES.POLICY_DENIED,
      `Refused to send credential ${secretNames.join(', ')} over plain http to ${url}. Use the https:// URL.`,
      { details: { url, secretNames } },
    );
  }
}

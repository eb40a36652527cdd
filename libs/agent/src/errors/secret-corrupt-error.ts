import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A stored secret does not decrypt: it was altered, truncated or stored under another name. */
export class SecretCorruptError extends TalonError {
  constructor(name: string, problem: string, cause?: unknown) {
    super(
      ERROR_CODES.INTEGRITY_MISMATCH,
      `Secret "${name}" cannot be decrypted: ${problem}. Set the secret again.`,
      { details: { name }, cause },
    );
  }
}

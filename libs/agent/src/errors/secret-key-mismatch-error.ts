import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A secret was encrypted under another key than the one configured. */
export class SecretKeyMismatchError extends TalonError {
  constructor(name: string, storedKeyId: string, configuredKeyId: string) {
    super(
      ERROR_CODES.INTEGRITY_MISMATCH,
      `Secret "${name}" was encrypted with key ${storedKeyId}, but the configured key is ${configuredKeyId}. Restore the original TALON_SECRETS_KEY or set the secret again.`,
      { details: { name, storedKeyId, configuredKeyId } },
    );
  }
}

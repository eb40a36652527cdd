import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The configured secrets key is not 32 bytes of base64 or hex. */
export class SecretsKeyInvalidError extends TalonError {
  constructor(problem: string, cause?: unknown) {
    super(
      ERROR_CODES.INTERNAL,
      `TALON_SECRETS_KEY is unusable: ${problem}. Set it to 32 random bytes in base64 or hex, e.g. the output of \`openssl rand -base64 32\`.`,
      { cause },
    );
  }
}

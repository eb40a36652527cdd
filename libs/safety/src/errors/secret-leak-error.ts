import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Text bound for a destination where secrets must never go contained one; `details.kinds` names what was found, never the value. */
export class SecretLeakError extends TalonError {
  constructor(destination: string, kinds: readonly string[]) {
    super(
      ERROR_CODES.SECRET_LEAK,
      `Refused to send text to ${destination}: it contains a secret (${[...new Set(kinds)].join(', ')}). Remove the secret; credentials are injected by the host.`,
      { details: { destination, kinds: [...new Set(kinds)] } },
    );
  }
}

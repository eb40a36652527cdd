import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Nobody subscribes to the subject: the target service is down or not deployed. */
export class NoRespondersError extends TalonError {
  constructor(subject: string) {
    super(
      ERROR_CODES.NO_RESPONDERS,
      `No service answers on ${subject}; check that it is running (\`pnpm talon status\`).`,
      {
        details: { subject },
        retryable: true,
      },
    );
  }
}

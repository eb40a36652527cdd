import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The NATS server refused this service's credentials. */
export class NatsAuthorizationError extends TalonError {
  constructor(url: string, user: string | undefined, cause: unknown) {
    super(
      ERROR_CODES.UNAUTHENTICATED,
      user
        ? `NATS at ${url} refused the credentials of user "${user}". Check NATS_USER and NATS_PASSWORD (or NATS_PASSWORD_FILE) against the server's authorization config.`
        : `NATS at ${url} requires credentials. Set NATS_PASSWORD (or NATS_PASSWORD_FILE) for this service; \`pnpm talon up\` does it for you.`,
      { details: { url, user }, cause },
    );
  }
}

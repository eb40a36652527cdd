import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** NATS did not accept a connection within the bounded retry. */
export class NatsUnreachableError extends TalonError {
  constructor(url: string, attempts: number, cause: unknown) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `Cannot reach NATS at ${url} after ${attempts} attempts. Start a server (\`nats-server -js\`, or \`pnpm talon up\`) or set NATS_URL.`,
      { details: { url, attempts }, cause, retryable: true },
    );
  }
}

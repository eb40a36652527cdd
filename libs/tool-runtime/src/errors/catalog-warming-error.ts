import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A tool is missing while the catalog is still filling after a start or a NATS reconnect. */
export class CatalogWarmingError extends TalonError {
  constructor(readonly toolName: string) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `Tool "${toolName}" is not in the catalog yet: it is still filling after a start or a NATS reconnect. Retry in a second.`,
      { details: { name: toolName, warming: true }, retryable: true },
    );
  }
}

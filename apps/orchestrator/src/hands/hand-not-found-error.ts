import { ERROR_CODES, type HandRejection } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** `hands.get` of an id that no hand has; when a file with that id was refused, the reason is given. */
export class HandNotFoundError extends TalonError {
  constructor(id: string, rejection?: HandRejection) {
    super(
      ERROR_CODES.NOT_FOUND,
      rejection
        ? `Hand "${id}" was refused (${rejection.reason}): ${rejection.message}. Fix ${rejection.path}.`
        : `No hand "${id}"; hands.list names the hands there are.`,
      { details: { id, ...(rejection ? { rejection } : {}) } },
    );
  }
}

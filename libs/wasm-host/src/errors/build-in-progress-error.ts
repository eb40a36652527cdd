import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A build of the same tool name is running: builds of one name are refused, not queued. */
export class BuildInProgressError extends TalonError {
  constructor(name: string, options: TalonErrorOptions = {}) {
    super(
      ERROR_CODES.BUILD_IN_PROGRESS,
      `A build of ${name} is already running; wait for its report (events on talon.events.v1.tool-build.${name}), then build again.`,
      { details: { name }, ...options },
    );
  }
}

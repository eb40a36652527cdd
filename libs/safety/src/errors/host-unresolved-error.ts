import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A host name of an outbound request did not resolve to any address. */
export class HostUnresolvedError extends TalonError {
  constructor(hostname: string, cause?: unknown) {
    super(
      ERROR_CODES.TOOL_FAILED,
      `Host ${hostname} did not resolve to any address. Check the spelling of the URL.`,
      {
        details: { hostname },
        cause,
      },
    );
  }
}

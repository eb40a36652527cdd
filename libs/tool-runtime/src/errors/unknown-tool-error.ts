import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** No tool of that name is registered (or visible in the catalog). */
export class UnknownToolError extends TalonError {
  constructor(readonly toolName: string) {
    super(
      ERROR_CODES.UNKNOWN_TOOL,
      `No tool named "${toolName}" is available; list the tools and call one of them.`,
      {
        details: { name: toolName },
      },
    );
  }
}

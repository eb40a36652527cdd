import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The path exists but is the wrong kind of entry (a directory where a file was expected, or the reverse). */
export class WorkspaceEntryTypeError extends TalonError {
  constructor(path: string, expected: 'file' | 'directory', actual: string) {
    super(
      ERROR_CODES.TOOL_FAILED,
      `${JSON.stringify(path)} is a ${actual}, not a ${expected}; pass a ${expected} path.`,
      {
        details: { path, expected, actual },
      },
    );
  }
}

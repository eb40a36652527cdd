import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The path is inside the workspace but nothing exists there. */
export class WorkspaceEntryNotFoundError extends TalonError {
  constructor(path: string) {
    super(
      ERROR_CODES.NOT_FOUND,
      `Nothing exists at ${JSON.stringify(path)} in the workspace; list the directory to find the right path.`,
      {
        details: { path },
      },
    );
  }
}

import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** PostgreSQL refused or did not answer the connection (the URL in the message has its password hidden). */
export class DatabaseUnreachableError extends TalonError {
  constructor(safeUrl: string, reason: string, cause: unknown) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `Cannot reach PostgreSQL at ${safeUrl} (${reason}). Check that the server is running and listening on that ` +
        'host and port, that the user, password and database in DATABASE_URL are right, and that pg_hba.conf ' +
        'admits this client; or unset DATABASE_URL to use the embedded PGlite database.',
      { details: { url: safeUrl, reason }, cause, retryable: true },
    );
  }
}

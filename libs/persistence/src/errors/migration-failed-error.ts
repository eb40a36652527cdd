import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A migration's SQL failed (it was rolled back), or an earlier attempt was left unfinished in the database. */
export class MigrationFailedError extends TalonError {
  constructor(migrationName: string, reason: string, cause?: unknown) {
    super(
      ERROR_CODES.INTERNAL,
      `Migration ${migrationName} failed: ${reason}. Fix the database or the migration, then start again; ` +
        'the runner applies nothing after a failed migration.',
      { details: { migrationName, reason }, cause },
    );
  }
}

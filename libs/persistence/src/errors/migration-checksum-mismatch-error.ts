import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A migration already applied to the database was edited afterwards; applying more would diverge silently. */
export class MigrationChecksumMismatchError extends TalonError {
  constructor(migrationName: string, appliedChecksum: string, fileChecksum: string) {
    super(
      ERROR_CODES.INTEGRITY_MISMATCH,
      `Migration ${migrationName} was changed after it was applied to this database (recorded sha256 ` +
        `${appliedChecksum.slice(0, 12)}…, file ${fileChecksum.slice(0, 12)}…). Restore the committed file and add ` +
        'a new migration for the change instead.',
      { details: { migrationName, appliedChecksum, fileChecksum } },
    );
  }
}

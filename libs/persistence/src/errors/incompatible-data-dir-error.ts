import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The PGlite data directory was written by a PostgreSQL major version this PGlite cannot open. */
export class IncompatibleDataDirError extends TalonError {
  constructor(dataDir: string, found: string, expected: string, cause?: unknown) {
    super(
      ERROR_CODES.INTEGRITY_MISMATCH,
      `The PGlite data directory ${dataDir} holds PostgreSQL ${found} data, but this build of Talon embeds ` +
        `PostgreSQL ${expected}. Move the directory aside (or dump it with the PGlite version that wrote it) ` +
        'and start again, or point TALON_PGLITE_DIR at another directory.',
      { details: { dataDir, found, expected }, cause },
    );
  }
}

import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * The PGlite data directory was written by a PostgreSQL major version this PGlite cannot open
 * (`found` is that version, or null when the directory is there but PGlite failed to open it).
 */
export class IncompatibleDataDirError extends TalonError {
  constructor(dataDir: string, found: string | null, expected: string, cause?: unknown) {
    const what =
      found === null
        ? `could not be opened by the embedded PostgreSQL ${expected} (${cause instanceof Error ? cause.message : String(cause)})`
        : `holds PostgreSQL ${found} data, but this build of Talon embeds PostgreSQL ${expected}`;
    super(
      ERROR_CODES.INTEGRITY_MISMATCH,
      `The PGlite data directory ${dataDir} ${what}. Move the directory aside (or dump it with the PGlite version ` +
        'that wrote it) and start again, or point TALON_PGLITE_DIR at another directory.',
      { details: { dataDir, found, expected }, cause },
    );
  }
}

import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * The lock of an open PGlite data directory was lost (its heartbeat could not be written in time, e.g. the
 * disk went away or the process stalled, or another process took it over): this process must stop writing.
 */
export class DataDirLockLostError extends TalonError {
  constructor(dataDir: string, cause: unknown) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `Lost the lock of the PGlite data directory ${dataDir} (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'Another process may own it now; this one stops to keep the data intact. Restart it once the other ' +
        'process is gone.',
      { details: { dataDir }, cause },
    );
  }
}

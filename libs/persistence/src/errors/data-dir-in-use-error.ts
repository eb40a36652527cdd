import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Another live process (or this one) already has the PGlite data directory open; two writers corrupt it. */
export class DataDirInUseError extends TalonError {
  constructor(dataDir: string, holderPid: number) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `The PGlite data directory ${dataDir} is already open in process ${holderPid}. PGlite allows one process ` +
        'per directory: stop that process, point TALON_PGLITE_DIR at another directory, or set DATABASE_URL ' +
        'to share a PostgreSQL server between processes.',
      { details: { dataDir, holderPid } },
    );
  }
}

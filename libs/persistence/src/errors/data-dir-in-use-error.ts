import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Who holds a PGlite data directory, as its owner file says (fields missing when it could not be read). */
export interface DataDirHolder {
  pid?: number;
  host?: string;
  /** When the holder took the lock (ISO 8601). */
  since?: string;
}

/** Another live process (or this one) already has the PGlite data directory open; two writers corrupt it. */
export class DataDirInUseError extends TalonError {
  declare readonly details: {
    dataDir: string;
    holderPid: number | null;
    holderHost: string | null;
    since: string | null;
    heartbeatAgeMs: number | null;
    staleMs: number;
  };

  constructor(dataDir: string, holder: DataDirHolder & { heartbeatAgeMs?: number }, staleMs: number) {
    const who =
      holder.pid !== undefined
        ? `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}${holder.since ? ` (since ${holder.since})` : ''}`
        : 'another process';
    const heartbeat =
      holder.heartbeatAgeMs !== undefined
        ? ` Its lock was refreshed ${Math.round(holder.heartbeatAgeMs / 1000)} s ago; a lock not refreshed for ${Math.round(staleMs / 1000)} s is taken over.`
        : '';
    super(
      ERROR_CODES.UNAVAILABLE,
      `The PGlite data directory ${dataDir} is already open in ${who}.${heartbeat} PGlite allows one process ` +
        'per directory: stop that process, point TALON_PGLITE_DIR at another directory, or set DATABASE_URL ' +
        'to share a PostgreSQL server between processes.',
      {
        details: {
          dataDir,
          holderPid: holder.pid ?? null,
          holderHost: holder.host ?? null,
          since: holder.since ?? null,
          heartbeatAgeMs: holder.heartbeatAgeMs === undefined ? null : Math.round(holder.heartbeatAgeMs),
          staleMs,
        },
      },
    );
  }
}

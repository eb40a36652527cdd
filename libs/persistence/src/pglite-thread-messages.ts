import type { IsolationLevel, SqlQuery } from '@prisma/driver-adapter-utils';
import type { TransportedError } from './transported-error.js';

/** What the main thread asks of the PGlite host thread; every request carries an id its reply repeats. */
export type PgliteThreadRequest = { id: number } & (
  | { op: 'queryRaw' | 'executeRaw'; txId?: number; query: SqlQuery }
  | { op: 'executeScript'; script: string }
  | { op: 'startTransaction'; isolationLevel?: IsolationLevel }
  | { op: 'endTransaction'; txId: number; commit: boolean }
  | { op: 'query'; sql: string; params: readonly unknown[]; txId?: number }
  | { op: 'executeScriptIn'; sql: string; txId?: number }
  | { op: 'beginWork' }
  | { op: 'execute'; sql: string; params: readonly unknown[] }
  | { op: 'executeText'; sql: string; table?: string }
  | { op: 'copyRows'; table: string; columns: readonly string[]; rows: Uint8Array }
  | { op: 'preparedQuery'; sql: string; params: readonly unknown[] }
  | { op: 'close' }
);

/** The host thread's answer to one request. */
export type PgliteThreadReply =
  { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: TransportedError };

/** What the host thread posts once, before any reply: PGlite is open, or could not be opened. */
export type PgliteThreadStart = { started: true } | { started: false; error: TransportedError };

/** What the host thread is started with (its `workerData`). */
export interface PgliteThreadData {
  dataDir: string;
  /** PostgreSQL settings after PGlite's default start parameters. */
  startParams: string[];
}

/**
 * PostgreSQL major version embedded by the pinned `@electric-sql/pglite` (0.5.x). A data directory written
 * by another major cannot be opened; checked up front because PGlite itself fails obscurely on one.
 */
export const PGLITE_POSTGRES_MAJOR = '18';

/**
 * PGlite's buffer pool. PostgreSQL's default (128MB) is sized for a shared server; in one embedded
 * process it is touched at start and stays resident (an idle orchestrator measured 130 MiB more with it),
 * while Talon's working set fits in a few MiB of pages.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '16MB';

/** What `TALON_PGLITE_SHARED_BUFFERS` accepts: PostgreSQL's memory units; 128kB is its minimum. */
export const PGLITE_SHARED_BUFFERS_PATTERN = /^[1-9][0-9]*(kB|MB|GB)$/;

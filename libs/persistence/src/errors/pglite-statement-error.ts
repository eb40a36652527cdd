/** The fields of a PostgreSQL ErrorResponse that callers read. */
export interface PgliteStatementErrorFields {
  /** SQLSTATE, e.g. `23505` for a unique violation. */
  code: string;
  message: string;
  detail?: string;
  constraint?: string;
  table?: string;
}

/**
 * A statement PGlite refused, shaped as the drivers' own errors are (`code` is the SQLSTATE, as on
 * node-postgres and PGlite's `DatabaseError`), so code that reads a driver error reads this one the same
 * way (`isUniqueViolation`).
 */
export class PgliteStatementError extends Error {
  readonly code: string;
  readonly detail?: string;
  readonly constraint?: string;
  readonly table?: string;

  constructor(fields: PgliteStatementErrorFields) {
    super(fields.message);
    this.name = 'PgliteStatementError';
    this.code = fields.code;
    if (fields.detail !== undefined) this.detail = fields.detail;
    if (fields.constraint !== undefined) this.constraint = fields.constraint;
    if (fields.table !== undefined) this.table = fields.table;
  }
}

/**
 * Whether a database error is a unique-constraint violation (PostgreSQL 23505), however it surfaced:
 * a Prisma model call (P2002), a raw query through a driver adapter (P2010 carrying the driver's error),
 * or the driver itself. Writers that number rows with `MAX(seq) + 1` or link to a head retry on it.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const value = current as {
      code?: unknown;
      kind?: unknown;
      originalCode?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: unknown; code?: unknown };
      cause?: unknown;
    };
    if (value.code === 'P2002' || value.code === '23505' || value.originalCode === '23505') return true;
    if (value.kind === 'UniqueConstraintViolation' || value.meta?.code === '23505') return true;
    if (typeof value.message === 'string' && /\b23505\b|Unique constraint failed/.test(value.message))
      return true;
    current = value.meta?.driverAdapterError ?? value.cause;
  }
  return false;
}

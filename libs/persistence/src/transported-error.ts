import { DriverAdapterError } from '@prisma/driver-adapter-utils';

/**
 * An error as it crosses from the PGlite host thread to the main thread. Structured cloning keeps only an
 * error's message and stack, and callers read more: the SQLSTATE in `code` (`isUniqueViolation`), the
 * fields of a PostgreSQL error, and the mapped `cause` of a Prisma `DriverAdapterError`.
 */
export interface TransportedError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own fields that are text, numbers, booleans or plain data. */
  fields: Record<string, unknown>;
  cause?: TransportedError | Record<string, unknown>;
}

const MAX_CAUSE_DEPTH = 4;

/** Takes an error apart for `postMessage`. */
export function transportError(error: unknown, depth = 0): TransportedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'cause') continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  const cause = error.cause;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    fields,
    ...(cause === undefined || depth >= MAX_CAUSE_DEPTH
      ? {}
      : {
          cause: cause instanceof Error ? transportError(cause, depth + 1) : plainCause(cause),
        }),
  };
}

/** A cause that is not an error (a Prisma adapter's mapped error is a plain object), as cloneable data. */
function plainCause(cause: unknown): Record<string, unknown> {
  if (typeof cause === 'object' && cause !== null) {
    try {
      return structuredClone(cause) as Record<string, unknown>;
    } catch {
      // Holds something that cannot cross a thread (a function): its text is what is left.
    }
  }
  return { value: String(cause) };
}

/** Builds the error again on the receiving side: a Prisma `DriverAdapterError` as one, others as `Error`. */
export function rebuildError(transported: TransportedError): Error {
  const cause =
    transported.cause === undefined
      ? undefined
      : isTransportedError(transported.cause)
        ? rebuildError(transported.cause)
        : transported.cause;
  const error =
    transported.name === 'DriverAdapterError' && cause !== undefined && !(cause instanceof Error)
      ? new DriverAdapterError(cause as ConstructorParameters<typeof DriverAdapterError>[0])
      : new Error(transported.message, cause === undefined ? undefined : { cause });
  error.name = transported.name;
  if (transported.stack !== undefined) error.stack = transported.stack;
  Object.assign(error, transported.fields);
  return error;
}

function isTransportedError(value: object): value is TransportedError {
  const candidate = value as Partial<TransportedError>;
  return (
    typeof candidate.name === 'string' &&
    typeof candidate.message === 'string' &&
    typeof candidate.fields === 'object'
  );
}

/** A failed call, carrying the envelope's stable `code` and its message (shown to the person as is). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is ApiError {
    return error instanceof Error && error.name === 'ApiError' && 'code' in error;
  }
}

/** The code the console uses when the API cannot be reached at all (no envelope came back). */
export const API_UNREACHABLE = 'API_UNREACHABLE';

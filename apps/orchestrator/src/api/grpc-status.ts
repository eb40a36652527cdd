import { Metadata } from '@grpc/grpc-js';
import { GRPC_STATUS_BY_CODE } from '@talon/contracts';
import { toWireError } from '@talon/errors';

/** Trailer names that carry the Talon code of a failed typed RPC. */
export const GRPC_ERROR_TRAILERS = { code: 'talon-error-code', retryable: 'talon-retryable' } as const;

/**
 * A typed RPC's failure as a gRPC status (grpc-js reads `code`, `details` and `metadata` off the error the
 * handler throws): the status mapped from the Talon code, `CODE: message` as details, and the code and
 * retryable flag in the trailers so a client need not parse text.
 */
export function grpcErrorOf(error: unknown): Error & { code: number; details: string; metadata: Metadata } {
  const wire = toWireError(error);
  const details = `${wire.code}: ${wire.message}`;
  const metadata = new Metadata();
  metadata.set(GRPC_ERROR_TRAILERS.code, wire.code);
  metadata.set(GRPC_ERROR_TRAILERS.retryable, String(wire.retryable ?? false));
  return Object.assign(new Error(details), { code: GRPC_STATUS_BY_CODE[wire.code] ?? 13, details, metadata });
}

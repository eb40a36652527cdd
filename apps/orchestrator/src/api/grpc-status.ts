import { Metadata } from '@grpc/grpc-js';
import { GRPC_STATUS_BY_CODE } from '@talon/contracts';
import { toWireError } from '@talon/errors';

/** Trailer names that carry the Talon code of a failed typed RPC. */
export const GRPC_ERROR_TRAILERS = { code: 'talon-error-code', retryable: 'talon-retryable' } as const;

/** An error grpc-js turns into the call's status. */
export type GrpcStatusError = Error & { code: number; details: string; metadata: Metadata };

/** True for an error made by {@link grpcErrorOf} (its status is already decided). */
export function isGrpcStatusError(error: unknown): error is GrpcStatusError {
  return error instanceof Error && (error as Partial<GrpcStatusError>).metadata instanceof Metadata;
}

/**
 * A typed RPC's failure as a gRPC status (grpc-js reads `code`, `details` and `metadata` off the error the
 * handler throws): the status mapped from the Talon code, `CODE: message` as details, and the code and
 * retryable flag in the trailers so a client need not parse text.
 */
export function grpcErrorOf(error: unknown): GrpcStatusError {
  const wire = toWireError(error);
  const details = `${wire.code}: ${wire.message}`;
  const metadata = new Metadata();
  metadata.set(GRPC_ERROR_TRAILERS.code, wire.code);
  metadata.set(GRPC_ERROR_TRAILERS.retryable, String(wire.retryable ?? false));
  return Object.assign(new Error(details), { code: GRPC_STATUS_BY_CODE[wire.code] ?? 13, details, metadata });
}

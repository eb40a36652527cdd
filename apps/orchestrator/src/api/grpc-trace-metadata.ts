import type { Metadata } from '@grpc/grpc-js';
import { recordCarrier, TRACE_HEADERS, type HeaderCarrier } from '@talon/telemetry';

/**
 * The W3C trace context of a gRPC call's metadata (`traceparent`, `tracestate`), as the HTTP surface reads
 * it from headers. Only these two keys are copied: the rest of the metadata (the bearer token) stays out.
 */
export function grpcTraceCarrier(metadata: Metadata | undefined): HeaderCarrier {
  const headers: Record<string, string> = {};
  for (const name of [TRACE_HEADERS.traceparent, TRACE_HEADERS.tracestate]) {
    const value = metadata?.get(name)[0];
    if (value !== undefined) headers[name] = value.toString();
  }
  return recordCarrier(headers);
}

import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { hasActiveTrace, injectTraceHeaders } from '@talon/telemetry';

/**
 * NATS headers carrying the active span's W3C trace context, or `undefined` outside a trace (so scatter
 * requests and announcements stay header-free when tracing is off).
 */
export function traceHeaders(): MsgHdrs | undefined {
  if (!hasActiveTrace()) return undefined;
  const headers = natsHeaders();
  injectTraceHeaders(headers);
  return headers;
}

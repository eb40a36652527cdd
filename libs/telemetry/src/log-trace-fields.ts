import { trace } from '@opentelemetry/api';
import { isTracingEnabled } from './tracing-switch.js';

/** `trace_id` and `span_id` of the active span, for a log line; `undefined` outside a span or with tracing off. */
export function logTraceFields(): { trace_id: string; span_id: string } | undefined {
  if (!isTracingEnabled()) return undefined;
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !trace.isSpanContextValid(spanContext)) return undefined;
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

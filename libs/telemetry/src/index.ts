export {
  parseTelemetryConfig,
  DEFAULT_METRICS_HOST,
  TRACE_SAMPLERS,
  type TelemetryConfig,
  type TracingConfig,
  type MetricsListenConfig,
  type TraceSampler,
} from './telemetry-config.js';
export { TelemetryConfigError } from './errors/telemetry-config-error.js';
export { startTracing, type TracingHandle, type TracingStartOptions } from './tracing.js';
export { isTracingEnabled } from './tracing-switch.js';
export { QuietSpanExporter, EXPORT_WARNING_INTERVAL_MS } from './quiet-span-exporter.js';
export { ATTR } from './span-attributes.js';
export {
  inSpan,
  activeSpan,
  recordFailure,
  bindToActiveContext,
  SpanKind,
  type Span,
  type SpanStart,
  type Attributes,
} from './spans.js';
export {
  hasActiveTrace,
  injectTraceHeaders,
  extractTraceContext,
  recordCarrier,
  TRACE_HEADERS,
  MAX_TRACESTATE_LENGTH,
  type HeaderCarrier,
} from './trace-propagation.js';
export { logTraceFields } from './log-trace-fields.js';
export {
  createTalonMetrics,
  talonMetrics,
  secondsSince,
  type TalonMetrics,
  type GaugeReading,
} from './talon-metrics.js';
export { startMetricsServer, type MetricsServer } from './metrics-server.js';

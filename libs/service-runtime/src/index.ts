export * from './service-config.js';
export { InvalidConfigError } from './errors/invalid-config-error.js';
export { NatsUnreachableError } from './errors/nats-unreachable-error.js';
export { NoRespondersError } from './errors/no-responders-error.js';
export { RequestTimeoutError } from './errors/request-timeout-error.js';
export { MalformedPayloadError } from './errors/malformed-payload-error.js';
export { PayloadTooLargeError } from './errors/payload-too-large-error.js';
export { SchemaViolationError, type SchemaViolation } from './errors/schema-violation-error.js';
export { UnknownMethodError } from './errors/unknown-method-error.js';
export { validatePayload } from './payload-validator.js';
export { parseSsrfAllowlist, SSRF_ALLOWLIST_ENV } from './ssrf-allowlist-config.js';
export { decodeJsonPayload, encodeJson, parseJsonText } from './json-codec.js';
export { DEFAULT_MAX_PAYLOAD_DEPTH, jsonNestingExceeds } from './json-nesting.js';
export { PayloadTooDeepError } from './errors/payload-too-deep-error.js';
export { ReplyTooLargeError } from './errors/reply-too-large-error.js';
export { JsonLogger, type LogSink } from './json-logger.js';
export { connectToNats, type NatsConnectOptions } from './nats-connection.js';
export { redactNatsUrl } from './nats-url-redaction.js';
export { NatsAuthorizationError } from './errors/nats-authorization-error.js';
export { NatsRequester, type RequestOptions } from './nats-requester.js';
export { TalonNatsServer, type TalonNatsServerOptions, type PatternExtras } from './talon-nats-server.js';
export { TalonNatsContext } from './talon-nats-context.js';
export { WireExceptionFilter } from './wire-exception-filter.js';
export { ServiceHealth, type HealthIdentity } from './service-health.js';
export { collectSystemStatus, DEFAULT_STATUS_TIMEOUT_MS } from './status-collector.js';
export { bootstrapService, type BootstrapOptions, type RunningService } from './bootstrap-service.js';
export {
  ToolHost,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_ANNOUNCE_TTL_MS,
  ACK_DELAY_MS,
  MISSING_TOOL_WAIT_MS,
  type ToolHostOptions,
  type MissingToolResolver,
} from './tool-host.js';
export { McpControlHost, type McpControlHostOptions, type McpControlTarget } from './mcp-control-host.js';
export { ToolHostLifecycleController, toolCallHandler, TOOL_HOST } from './tool-call-controller.js';
export type { NatsHandlerRegistration } from './nats-handler-registration.js';
export { findFreePort } from './free-port.js';
export { WriteBatcher } from './write-batcher.js';
export { traceHeaders } from './nats-trace-headers.js';
export {
  ToolCallRequester,
  DEFAULT_PROBE_EVERY_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  type ToolCallRequesterOptions,
  type ToolCallSend,
} from './tool-call-requester.js';
export { WorkerLostError } from './errors/worker-lost-error.js';
export { CallCancelledError } from './errors/call-cancelled-error.js';
export { RequestTooLargeError } from './errors/request-too-large-error.js';
export { ToolResultUnavailableError } from './errors/tool-result-unavailable-error.js';
export {
  ToolResultStore,
  DEFAULT_TOOL_RESULT_TTL_MS,
  DEFAULT_TOOL_RESULT_BUCKET_BYTES,
  type ToolResultStoreOptions,
} from './tool-result-store.js';
export { serviceNodeOptions } from './service-node-options.js';
export { serviceEntry } from './service-entry.js';

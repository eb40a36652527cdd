export type { Tool, ToolContext, ToolLogger, CredentialGrant } from './tool.js';
export {
  ToolRegistry,
  type ToolLookup,
  type ToolRegistryOptions,
  type RegisterOptions,
  type ToolRegistryListener,
} from './tool-registry.js';
export {
  TOOL_NAME_PATTERN,
  MAX_TOOL_NAME_LENGTH,
  isValidToolName,
  assertValidToolName,
  toLlmToolName,
  displayName,
} from './tool-name.js';
export {
  ParamValidator,
  DEFAULT_MAX_CACHED_SCHEMAS,
  DEFAULT_MAX_VIOLATIONS,
  type ParamValidatorOptions,
} from './param-validator.js';
export {
  checkParamLimits,
  parseParamLimits,
  DEFAULT_PARAM_LIMITS,
  type ParamLimits,
} from './param-limits.js';
export { SlidingWindowRateLimiter, DEFAULT_SWEEP_EVERY, type RateLimiterOptions } from './rate-limiter.js';
export type { CallRateLimiter, RateLimitScope, ScopedRateLimit } from './call-rate-limiter.js';
export type { RateLimitCount, RateLimitStore } from './rate-limit-store.js';
export { FlexibleRateLimitStore, type FlexibleLimiterOptions } from './flexible-rate-limit-store.js';
export { LeasedRateLimiter, defaultLeaseSize, type LeasedRateLimiterOptions } from './leased-rate-limiter.js';
export {
  ToolPipeline,
  DEFAULT_MAX_MEDIA_BYTES,
  type ToolPipelineOptions,
  type PrepareOptions,
} from './tool-pipeline.js';
export type {
  ToolCall,
  PreparedCall,
  ExecutedCall,
  ToolRunResult,
  ToolExecutor,
  RenderedOutput,
  OutputRenderer,
} from './tool-call.js';
export { runWithTimeout } from './run-with-timeout.js';
export { untilChanged, type ChangeSubscribe } from './until-changed.js';
export { CallAbort } from './call-abort.js';
export { listenForCallAbort } from './call-abort-listener.js';
export type {
  LeakScanner,
  LeakFinding,
  OutputSanitizer,
  OutputWrapper,
  OutputSafety,
} from './output-safety.js';
export {
  NOOP_OUTPUT_SAFETY,
  noopLeakScanner,
  noopOutputSanitizer,
  noopOutputWrapper,
} from './noop-output-safety.js';
export { truncateText, cutUtf8, DEFAULT_MAX_OUTPUT_BYTES, type TruncatedText } from './output-truncation.js';
export { outputToText } from './output-text.js';
export { redactParams, hashParams, REDACTED } from './sensitive-params.js';
export { guardedRegExpEngine, MAX_SCHEMA_PATTERN_LENGTH } from './regexp-guard.js';
export { canonicalJson } from './canonical-json.js';
export { UnknownToolError } from './errors/unknown-tool-error.js';
export { ToolNameConflictError, type ToolNameConflictReason } from './errors/tool-name-conflict-error.js';
export { InvalidToolNameError } from './errors/invalid-tool-name-error.js';
export { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error.js';
export { assertValidToolDefinition } from './tool-definition-check.js';
export { InvalidToolSchemaError } from './errors/invalid-tool-schema-error.js';
export { ParamsInvalidError, type ParamViolation } from './errors/params-invalid-error.js';
export { ParamsTooLargeError, type ParamLimitName } from './errors/params-too-large-error.js';
export { RateLimitedError } from './errors/rate-limited-error.js';
export { RateLimitStoreUnavailableError } from './errors/rate-limit-store-unavailable-error.js';
export { ToolTimeoutError } from './errors/tool-timeout-error.js';
export { ToolFailedError } from './errors/tool-failed-error.js';
export { NoLocalExecutorError } from './errors/no-local-executor-error.js';
export { OutputSafetyMissingError } from './errors/output-safety-missing-error.js';
export {
  ToolCatalog,
  type CatalogEntry,
  type CatalogConflict,
  type CatalogListener,
} from './tool-catalog.js';
export { ConcurrencyLimiter, type SlotWait } from './concurrency-limiter.js';
export {
  WorkerLossDetector,
  DEFAULT_ACK_TIMEOUT_MS,
  DEFAULT_UNRESPONSIVE_AFTER_MS,
  type LostCall,
  type WorkerLossReason,
  type WorkerLossDetectorOptions,
} from './worker-loss-detector.js';
export { CatalogWarmUp } from './catalog-warm-up.js';
export { awaitWarmTools, WARM_TOOL_WAIT_MS } from './await-warm-tools.js';
export { CatalogWarmingError } from './errors/catalog-warming-error.js';

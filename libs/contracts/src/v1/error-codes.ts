/**
 * Stable error codes carried in the wire envelope. Clients switch on `code`, never on the message.
 * Each code says which side is at fault and whether a retry can help.
 */
export const ERROR_CODES = {
  /** The payload was not valid JSON. Fix the client's encoding. */
  MALFORMED_JSON: 'MALFORMED_JSON',
  /** The payload did not match the method's JSON Schema; `details` lists the violations. */
  SCHEMA_VIOLATION: 'SCHEMA_VIOLATION',
  /** The payload exceeded the service's size limit. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** The call carried no token, or a token that is unknown, revoked or expired. Send `Authorization: Bearer <token>` (HTTP), `authorization` metadata (gRPC) or a `talon-token` header (NATS). */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The token is valid but its scope does not cover the method; `details` names the scope needed. */
  FORBIDDEN: 'FORBIDDEN',
  /** An HTTP request body was not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** No such API method. */
  UNKNOWN_METHOD: 'UNKNOWN_METHOD',
  /** No such tool in the live catalog. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /** A referenced entity (session, approval, skill, …) does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** No service instance subscribes to the subject: the service is down or not deployed. */
  NO_RESPONDERS: 'NO_RESPONDERS',
  /** The downstream call did not answer before its deadline. */
  TIMEOUT: 'TIMEOUT',
  /** The request was refused by policy. */
  POLICY_DENIED: 'POLICY_DENIED',
  /** The call needs a person's approval; `details.approvalId` names the pending approval. */
  APPROVAL_REQUIRED: 'APPROVAL_REQUIRED',
  /** Too many calls in the window; retry after `details.retryAfterMs`. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** A name is protected or already taken. */
  NAME_CONFLICT: 'NAME_CONFLICT',
  /** An outbound request targeted a forbidden address. */
  SSRF_BLOCKED: 'SSRF_BLOCKED',
  /** Output or egress contained a secret. */
  SECRET_LEAK: 'SECRET_LEAK',
  /** A path escaped the workspace root. */
  PATH_OUTSIDE_WORKSPACE: 'PATH_OUTSIDE_WORKSPACE',
  /** A path named by `skill_read_file` escaped the skill's folder. */
  PATH_OUTSIDE_SKILL: 'PATH_OUTSIDE_SKILL',
  /** The tool ran and reported a failure. */
  TOOL_FAILED: 'TOOL_FAILED',
  /** An integrity check (sha256, version) failed. */
  INTEGRITY_MISMATCH: 'INTEGRITY_MISMATCH',
  /** A skill's template does not parse or render (syntax, undefined variable, a construct the sandbox refuses); `details` names the skill and line. */
  SKILL_TEMPLATE_INVALID: 'SKILL_TEMPLATE_INVALID',
  /** A skill's template hit a sandbox limit (output size, loop iterations, evaluation steps); `details` names the limit. */
  SKILL_TEMPLATE_LIMIT: 'SKILL_TEMPLATE_LIMIT',
  /** The skill exists but cannot run here (requirements or required tools missing); `details.reasons` says why. */
  SKILL_GATED_OUT: 'SKILL_GATED_OUT',
  /** `execute_skill` nested deeper than allowed or ran a skill already running in its chain. */
  SKILL_RECURSION_LIMIT: 'SKILL_RECURSION_LIMIT',
  /** An `execute_skill` sub-task hit its limit (model calls, time or tokens) before it finished. */
  SKILL_TASK_LIMIT: 'SKILL_TASK_LIMIT',
  /** The service is shutting down; retry on another instance. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** A sandboxed process cannot start here (bubblewrap missing, namespaces refused); `details.fix` says how to fix it. */
  SANDBOX_UNAVAILABLE: 'SANDBOX_UNAVAILABLE',
  /** The sandbox user cannot enter a directory on the way to a path the sandbox binds; `details.directory` names it and `details.fix` says how to fix it. */
  SANDBOX_PATH_UNREACHABLE: 'SANDBOX_PATH_UNREACHABLE',
  /** A bug or unexpected state inside Talon. Report it with the call id. */
  INTERNAL: 'INTERNAL',
  /** A tool build of that name is already running; wait for its report, then build again. */
  BUILD_IN_PROGRESS: 'BUILD_IN_PROGRESS',
  /** A routine trigger is invalid (cron field, timezone, interval, instant, pattern); `details.field` names it. */
  INVALID_TRIGGER: 'INVALID_TRIGGER',
  /** A JetStream bucket of shared state exists with settings Talon cannot use (a TTL, no history, another subject); `details.differences` lists them and the fix. */
  STATE_BUCKET_MISMATCH: 'STATE_BUCKET_MISMATCH',
  /** A tool call was running when its orchestrator died: it may or may not have taken effect. Check before calling it again (the synthetic result says whether the tool is idempotent). */
  INTERRUPTED: 'INTERRUPTED',
  /** This orchestrator lost the turn's lease (it was too slow to renew it) and another one finishes the turn; follow the session's events or read its messages. */
  TURN_LEASE_LOST: 'TURN_LEASE_LOST',
  /** The hand instance is paused (or in error, or inactive): resume it with hands.resume, or run the hand itself. */
  HAND_NOT_ACTIVE: 'HAND_NOT_ACTIVE',
  /** The worker instance that held the call disappeared before answering; the call may or may not have run. Retry (on another instance) if running it twice is acceptable. */
  WORKER_LOST: 'WORKER_LOST',
  /** The tool ran, but its result (too large for one NATS message, left in the `talon_tool_results` object store) could not be read: JetStream is down or the object expired. The call has taken effect; check before calling it again. */
  TOOL_RESULT_UNAVAILABLE: 'TOOL_RESULT_UNAVAILABLE',
} as const;

/** One of the stable wire error codes. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** HTTP status for each code, used by the REST surface. */
export const HTTP_STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  MALFORMED_JSON: 400,
  SCHEMA_VIOLATION: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNKNOWN_METHOD: 404,
  UNKNOWN_TOOL: 404,
  NOT_FOUND: 404,
  NO_RESPONDERS: 503,
  TIMEOUT: 504,
  POLICY_DENIED: 403,
  APPROVAL_REQUIRED: 409,
  RATE_LIMITED: 429,
  NAME_CONFLICT: 409,
  SSRF_BLOCKED: 403,
  SECRET_LEAK: 403,
  PATH_OUTSIDE_WORKSPACE: 403,
  PATH_OUTSIDE_SKILL: 403,
  TOOL_FAILED: 422,
  INTEGRITY_MISMATCH: 422,
  SKILL_TEMPLATE_INVALID: 422,
  SKILL_TEMPLATE_LIMIT: 422,
  SKILL_GATED_OUT: 409,
  SKILL_RECURSION_LIMIT: 409,
  SKILL_TASK_LIMIT: 422,
  UNAVAILABLE: 503,
  SANDBOX_UNAVAILABLE: 503,
  SANDBOX_PATH_UNREACHABLE: 503,
  INTERNAL: 500,
  BUILD_IN_PROGRESS: 409,
  INVALID_TRIGGER: 400,
  STATE_BUCKET_MISMATCH: 500,
  INTERRUPTED: 500,
  TURN_LEASE_LOST: 409,
  HAND_NOT_ACTIVE: 409,
  WORKER_LOST: 503,
  TOOL_RESULT_UNAVAILABLE: 502,
};

/** gRPC status code for each wire code (numbers from grpc's status.proto). */
export const GRPC_STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  MALFORMED_JSON: 3,
  SCHEMA_VIOLATION: 3,
  PAYLOAD_TOO_LARGE: 8,
  UNAUTHENTICATED: 16,
  FORBIDDEN: 7,
  UNSUPPORTED_MEDIA_TYPE: 3,
  UNKNOWN_METHOD: 12,
  UNKNOWN_TOOL: 5,
  NOT_FOUND: 5,
  NO_RESPONDERS: 14,
  TIMEOUT: 4,
  POLICY_DENIED: 7,
  APPROVAL_REQUIRED: 9,
  RATE_LIMITED: 8,
  NAME_CONFLICT: 6,
  SSRF_BLOCKED: 7,
  SECRET_LEAK: 7,
  PATH_OUTSIDE_WORKSPACE: 7,
  PATH_OUTSIDE_SKILL: 7,
  TOOL_FAILED: 2,
  INTEGRITY_MISMATCH: 9,
  SKILL_TEMPLATE_INVALID: 3,
  SKILL_TEMPLATE_LIMIT: 8,
  SKILL_GATED_OUT: 9,
  SKILL_RECURSION_LIMIT: 9,
  SKILL_TASK_LIMIT: 4,
  UNAVAILABLE: 14,
  SANDBOX_UNAVAILABLE: 9,
  SANDBOX_PATH_UNREACHABLE: 9,
  INTERNAL: 13,
  BUILD_IN_PROGRESS: 10,
  INVALID_TRIGGER: 3,
  STATE_BUCKET_MISMATCH: 9,
  INTERRUPTED: 10,
  TURN_LEASE_LOST: 10,
  HAND_NOT_ACTIVE: 9,
  WORKER_LOST: 14,
  TOOL_RESULT_UNAVAILABLE: 14,
};

/** Injection tokens of the orchestrator. */
export const ORCHESTRATOR_CONFIG = Symbol('ORCHESTRATOR_CONFIG');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const LOGGER = Symbol('LOGGER');
export const NATS_REQUESTER = Symbol('NATS_REQUESTER');
export const DATABASE = Symbol('DATABASE');
export const TOOL_CATALOG = Symbol('TOOL_CATALOG');
export const TOOL_DISPATCHER = Symbol('TOOL_DISPATCHER');
/** The {@link ToolCallRequester}: acknowledged tool calls with failover and cancel. */
export const TOOL_CALL_REQUESTER = Symbol('TOOL_CALL_REQUESTER');
export const AUDIT_LOG = Symbol('AUDIT_LOG');
export const ARTIFACT_STORE = Symbol('ARTIFACT_STORE');
export const CATALOG_SYNC = Symbol('CATALOG_SYNC');
export const CATALOG_WARM_UP = Symbol('CATALOG_WARM_UP');
export const CHAT_SERVICE = Symbol('CHAT_SERVICE');
export const APPROVAL_QUEUE = Symbol('APPROVAL_QUEUE');
export const SECRET_STORE = Symbol('SECRET_STORE');
export const POLICY_GATE = Symbol('POLICY_GATE');
export const HAND_CATALOG = Symbol('HAND_CATALOG');
export const SECRET_CIPHER = Symbol('SECRET_CIPHER');
export const TURN_LEASES = Symbol('TURN_LEASES');

/** Injection tokens of the orchestrator. */
export const ORCHESTRATOR_CONFIG = Symbol('ORCHESTRATOR_CONFIG');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const LOGGER = Symbol('LOGGER');
export const NATS_REQUESTER = Symbol('NATS_REQUESTER');
export const DATABASE = Symbol('DATABASE');

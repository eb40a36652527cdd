/** Injection tokens of the wasm-runner. */
export const TOOL_REGISTRY = Symbol('TOOL_REGISTRY');
export const RUNNER_CONFIG = Symbol('RUNNER_CONFIG');

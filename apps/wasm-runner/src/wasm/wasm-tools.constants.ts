/** Injection tokens of the wasm-runner's WebAssembly tools. */
export const WASM_TOOL_INSTALLER = Symbol('WASM_TOOL_INSTALLER');
export const DECLARED_SECRETS_RESPONDER = Symbol('DECLARED_SECRETS_RESPONDER');

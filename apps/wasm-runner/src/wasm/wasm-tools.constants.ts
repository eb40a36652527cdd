/** Injection tokens of the wasm-runner's WebAssembly tools. */
export const WASM_TOOLS_RUNTIME = Symbol('WASM_TOOLS_RUNTIME');
export const DECLARED_SECRETS_RESPONDER = Symbol('DECLARED_SECRETS_RESPONDER');

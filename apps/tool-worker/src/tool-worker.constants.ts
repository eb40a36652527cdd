/** Injection tokens of the tool-worker. */
export const TOOL_HOST = Symbol('TOOL_HOST');

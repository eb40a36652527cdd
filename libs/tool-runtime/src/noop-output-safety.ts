import type { LeakScanner, OutputSafety, OutputSanitizer, OutputWrapper } from './output-safety.js';

/**
 * Pass-through output safety FOR TESTS ONLY: it finds no leaks, sanitizes nothing and wraps with a bare tag.
 * Production wiring must pass the `@talon/safety` implementations.
 */
export const noopLeakScanner: LeakScanner = { redact: (text) => ({ text, findings: [] }) };

/** Pass-through sanitizer FOR TESTS ONLY. */
export const noopOutputSanitizer: OutputSanitizer = { sanitize: (text) => ({ text, findings: [] }) };

/** Minimal wrapper FOR TESTS ONLY (no escaping). */
export const noopOutputWrapper: OutputWrapper = {
  wrap: (toolName, callId, text) =>
    `<tool_output name="${toolName}" call_id="${callId}">${text}</tool_output>`,
};

/** All three pass-through stages together, FOR TESTS ONLY. */
export const NOOP_OUTPUT_SAFETY: OutputSafety = {
  leakScanner: noopLeakScanner,
  sanitizer: noopOutputSanitizer,
  wrapper: noopOutputWrapper,
};

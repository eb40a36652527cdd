/** Where a leak scanner found a secret in a text (offsets into the scanned text). */
export interface LeakFinding {
  kind: string;
  start: number;
  end: number;
}

/**
 * Finds known key formats and the exact values of the secrets granted to a call, and redacts them.
 * Implemented by `@talon/safety` (LeakDetector); the tool runtime only depends on this shape.
 */
export interface LeakScanner {
  redact(text: string, knownSecrets: readonly string[]): { text: string; findings: LeakFinding[] };
}

/** Neutralises prompt-injection patterns in tool output before the model reads it (`@talon/safety`). */
export interface OutputSanitizer {
  sanitize(text: string): { text: string; findings: string[] };
}

/** Wraps tool output for the model, e.g. in `<tool_output name call_id>` with escaping (`@talon/safety`). */
export interface OutputWrapper {
  wrap(toolName: string, callId: string, text: string): string;
}

/** The three output-safety stages the orchestrator-side pipeline runs after every call. */
export interface OutputSafety {
  leakScanner: LeakScanner;
  sanitizer: OutputSanitizer;
  wrapper: OutputWrapper;
}

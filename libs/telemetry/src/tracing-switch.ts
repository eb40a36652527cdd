/**
 * Whether this process records spans. A plain flag read on every hot path, so with tracing off a call
 * pays one branch: no context lookup, no span object, no header.
 */
let enabled = false;

export function isTracingEnabled(): boolean {
  return enabled;
}

/** Set by {@link startTracing} and its shutdown only. */
export function setTracingEnabled(value: boolean): void {
  enabled = value;
}

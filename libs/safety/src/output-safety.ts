import { sanitizeToolOutput } from './injection-sanitizer.js';
import { LeakDetector } from './leak-detector.js';
import { wrapToolOutput } from './tool-output-wrapper.js';

/**
 * The three output stages the tool-runtime pipeline runs after every call (leak scan, sanitize, wrap),
 * built from this library. Structurally the `OutputSafety` of `@talon/tool-runtime`, which this library
 * cannot import (tool-runtime depends on it).
 */
export function createOutputSafety(detector: LeakDetector = new LeakDetector()) {
  return {
    leakScanner: detector,
    sanitizer: { sanitize: sanitizeToolOutput },
    wrapper: { wrap: wrapToolOutput },
  };
}

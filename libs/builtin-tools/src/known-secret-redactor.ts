import { LeakDetector, knownSecretForms } from '@talon/safety';

// Only exact values: key-format scanning of tool output is the pipeline's job.
const exactValues = new LeakDetector([]);

/**
 * Replaces every granted secret value (plain, percent- or form-encoded, base64, base64url, hex, or split
 * by invisible characters) in every string of a JSON-like value, keys included, so a tool's output never
 * carries a credential it was given, even echoed back encoded.
 */
export function redactKnownSecrets<T>(value: T, granted: readonly string[]): T {
  if (granted.length === 0) return value;
  const secrets = knownSecretForms(granted);
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return exactValues.redact(node, secrets).text;
    if (Array.isArray(node)) return node.map(visit);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) => [visit(key) as string, visit(child)]),
      );
    }
    return node;
  };
  return visit(value) as T;
}

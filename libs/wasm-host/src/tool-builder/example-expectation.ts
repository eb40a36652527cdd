/**
 * Whether a tool's output satisfies an example's `expect`: an object matches when each of its keys matches the
 * output's, an array when it has the same length and matches element by element, anything else by equality.
 * Returns why it does not match, or undefined.
 */
export function expectationMismatch(output: unknown, expected: unknown, path = '$'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(output)) return `${path} should be an array, got ${describe(output)}`;
    if (output.length !== expected.length)
      return `${path} should have ${expected.length} items, got ${output.length}`;
    for (const [index, item] of expected.entries()) {
      const mismatch = expectationMismatch(output[index], item, `${path}[${index}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof output !== 'object' || output === null || Array.isArray(output))
      return `${path} should be an object, got ${describe(output)}`;
    for (const [key, value] of Object.entries(expected)) {
      const mismatch = expectationMismatch((output as Record<string, unknown>)[key], value, `${path}.${key}`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return Object.is(output, expected)
    ? undefined
    : `${path} should be ${JSON.stringify(expected)}, got ${describe(output)}`;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** `{"error": "text"}` as an expectation: the call must fail with a message containing the text. */
export function expectedError(expected: unknown): string | undefined {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) return undefined;
  const keys = Object.keys(expected);
  const error = (expected as { error?: unknown }).error;
  return keys.length === 1 && typeof error === 'string' ? error : undefined;
}

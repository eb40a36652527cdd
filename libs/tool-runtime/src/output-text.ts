/**
 * The text form of a tool's structured output: strings as they are, anything else as compact JSON
 * (`undefined` becomes an empty text).
 */
export function outputToText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return (
      JSON.stringify(output, (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ) ?? ''
    );
  } catch {
    // A cycle or a throwing toJSON: say so rather than fail the whole call after the tool succeeded.
    return String(output);
  }
}

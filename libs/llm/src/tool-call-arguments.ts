/** The outcome of parsing a tool call's streamed argument text. */
export type ToolCallArgumentsResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Parses the concatenated argument fragments of a tool call. Empty text means no arguments (several
 * local servers send `""` for a tool without parameters); anything but a JSON object is refused.
 */
export function parseToolCallArguments(toolName: string, raw: string): ToolCallArgumentsResult {
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `The arguments for tool "${toolName}" are not valid JSON (${reason}); send a JSON object.`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, message: `The arguments for tool "${toolName}" must be a JSON object, not ${kind}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

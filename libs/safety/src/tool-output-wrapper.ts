// `<`, optionally `/`, then `tool_output`, with any spacing or invisible characters in between. The `/`
// owns the second run of spaces, so the two runs cannot trade characters (which would be quadratic).
const WRAPPER_TAG =
  /<(?=[\s\u00AD\u200B-\u200D\u2060\uFEFF]*(?:\/[\s\u00AD\u200B-\u200D\u2060\uFEFF]*)?tool_output)/gi;

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Frames tool output for the model as `<tool_output name="…" call_id="…">…</tool_output>`. Attributes are
 * escaped, and every `<tool_output` or `</tool_output` inside the body is escaped, so the body can neither
 * close the frame nor open a fake one.
 */
export function wrapToolOutput(toolName: string, callId: string, text: string): string {
  const body = text.replace(WRAPPER_TAG, '&lt;');
  return `<tool_output name="${escapeAttribute(toolName)}" call_id="${escapeAttribute(callId)}">\n${body}\n</tool_output>`;
}

/** The result of sanitising tool output: the text to show the model and what was neutralised or flagged. */
export interface SanitizedOutput {
  text: string;
  /** Stable labels, each listed once: `control_characters`, `bidi_controls`, `fake_tag:system`, … */
  findings: string[];
}

// C0 controls except tab, newline and carriage return; DEL; C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Embeddings, overrides, isolates and marks that reorder what a reader sees.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// Invisible characters that could split a tag name so a pattern misses it; joiners stay (emoji and scripts need them).
const INVISIBLE_SPLITTERS = /[\u00AD\u180E\u200B\u2060-\u2064\uFEFF]/g;

// Tags the model could read as the host's framing: tool output, tool calls, system and role turns.
// `\s*(?:\/\s*)?`, not `\s*\/?\s*`: two adjacent runs of `\s*` make a long run of spaces quadratic.
const FAKE_TAG =
  /<(?=\s*(?:\/\s*)?(tool_output|tool_result|tool_call|tool_use|function_results|function_calls|function_call|system|system-reminder|assistant|user|human|instructions|antml:[a-z_]+)\b)/gi;
// Chat-template special tokens such as <|im_start|>, <|eot_id|>, <｜end▁of▁sentence｜>.
const CHAT_TEMPLATE_TOKEN = /<([|｜])([^<>\n]{1,40}?)([|｜])>/g;
const INST_MARKER = /\[(\/?INST)\]|<<(\/?SYS)>>/g;
// Role headers that start a turn in plain-text chat formats, at the start of the text or after a blank line.
const ROLE_HEADER = /(^|\n[ \t]*\n)([ \t]*)(Human|Assistant|System|User)([ \t]*:)/g;
const INSTRUCTION_OVERRIDE = [
  /\b(?:ignore|disregard|forget|override)\b[^\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|your|system)\b[^\n]{0,30}\b(?:instructions?|prompts?|directions|rules|guidelines|messages)\b/i,
  /\b(?:new|updated|real) (?:system )?instructions\s*:/i,
  /\byou are now (?:a|an|in|the)\b/i,
  /\b(?:reveal|print|show|repeat)\b[^\n]{0,30}\bsystem prompt\b/i,
];

/**
 * Neutralises text in tool output that imitates the host's framing before the model reads it: fake
 * `<tool_output>`/`</tool_output>`, `<system>` and role tags are escaped, chat-template tokens and
 * `[INST]` markers defused, plain-text role headers quoted; control characters and bidi overrides
 * removed. "Ignore previous instructions" style lines are flagged, not changed. Other text is untouched.
 */
export function sanitizeToolOutput(text: string): SanitizedOutput {
  const findings = new Set<string>();
  const remove = (input: string, pattern: RegExp, label: string) =>
    input.replace(pattern, () => {
      findings.add(label);
      return '';
    });
  let result = remove(text, CONTROL_CHARACTERS, 'control_characters');
  result = remove(result, BIDI_CONTROLS, 'bidi_controls');
  result = remove(result, INVISIBLE_SPLITTERS, 'invisible_characters');
  result = result.replace(FAKE_TAG, (_match, name: string) => {
    findings.add(`fake_tag:${name.toLowerCase()}`);
    return '&lt;';
  });
  result = result.replace(CHAT_TEMPLATE_TOKEN, (_match, open: string, name: string, close: string) => {
    findings.add('chat_template_token');
    return `&lt;${open}${name}${close}&gt;`;
  });
  result = result.replace(INST_MARKER, (match, inst: string | undefined, sys: string | undefined) => {
    findings.add('instruction_marker');
    return inst !== undefined ? `&#91;${inst}&#93;` : `&lt;&lt;${sys}&gt;&gt;`;
  });
  result = result.replace(
    ROLE_HEADER,
    (_match, before: string, indent: string, role: string, colon: string) => {
      findings.add(`role_header:${role.toLowerCase()}`);
      return `${before}${indent}> ${role}${colon}`;
    },
  );
  if (INSTRUCTION_OVERRIDE.some((pattern) => pattern.test(result))) findings.add('instruction_override');
  return { text: result, findings: [...findings] };
}

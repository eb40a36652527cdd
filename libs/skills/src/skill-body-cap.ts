/** Characters per token used for every skill cost estimate (the selector's `body length / 4`). */
export const CHARS_PER_TOKEN = 4;

/**
 * Cuts a skill body to a token budget, at a line break when one is near, with a visible marker that says how
 * much was left out and where the rest is. Large SKILL.md files load whole; only what reaches the prompt is cut.
 */
export function capSkillBody(body: string, maxTokens: number): string {
  const maxChars = Math.max(0, maxTokens) * CHARS_PER_TOKEN;
  if (body.length <= maxChars) return body;
  const marker = (kept: number) =>
    `\n[… skill body cut at about ${maxTokens} tokens: ${body.length - kept} more characters are in SKILL.md]`;
  const room = Math.max(0, maxChars - marker(maxChars).length);
  const lineBreak = body.lastIndexOf('\n', room);
  const cut = lineBreak > room * 0.8 ? lineBreak : room;
  return body.slice(0, cut) + marker(cut);
}

/** Deepest nesting of arrays and objects a request body may have. Tool params allow 32 below `params`. */
export const DEFAULT_MAX_PAYLOAD_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The nesting depth of JSON text, found by one pass over its characters (strings and their escapes
 * skipped), stopping as soon as `limit` is passed. It runs before `JSON.parse`, so a body nested ten
 * thousand levels deep is refused before anything recursive (a schema check, a canonical hash,
 * `JSON.stringify` of the reply) can overflow the stack. The text need not be valid JSON.
 */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

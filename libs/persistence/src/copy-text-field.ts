const NEEDS_ESCAPING = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * One value as a field of COPY's text format, for {@link Database.copyRows}: `\N` for NULL, an integer, or
 * text with backslash, tab, newline and carriage return escaped (so no value can end its field or row, or
 * read as `\N` or the end-of-data marker `\.`). Anything else is refused, as {@link sqlLiteral} refuses it.
 */
export function copyTextField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer for a COPY field: ${value}`);
    return String(value);
  }
  if (typeof value !== 'string') throw new TypeError(`not text for a COPY field: ${typeof value}`);
  return NEEDS_ESCAPING.test(value)
    ? value.replace(/[\\\t\n\r]/g, (character) => ESCAPES[character]!)
    : value;
}

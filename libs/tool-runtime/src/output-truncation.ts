/** Default cap of the text a tool returns to the model: 64 KiB of UTF-8. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

/** The outcome of {@link truncateText}. */
export interface TruncatedText {
  text: string;
  truncated: boolean;
  /** UTF-8 size of the text before truncation. */
  originalBytes: number;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character; no note is added. */
export function cutUtf8(text: string, maxBytes: number): TruncatedText {
  // Fast path: even at 3 bytes per UTF-16 unit the text fits.
  if (text.length * 3 <= maxBytes) return { text, truncated: false, originalBytes: Buffer.byteLength(text) };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false, originalBytes: bytes.length };
  let end = maxBytes;
  // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true, originalBytes: bytes.length };
}

/**
 * Cuts `text` to at most `maxBytes` of UTF-8 (never inside a character) and appends a note that says how
 * much was kept, so the model knows the output is partial. `originalBytes` overrides the size reported in
 * the note when the text was already cut earlier.
 */
export function truncateText(text: string, maxBytes: number, originalBytes?: number): TruncatedText {
  const cut = cutUtf8(text, maxBytes);
  const total = Math.max(originalBytes ?? 0, cut.originalBytes);
  if (!cut.truncated && total === cut.originalBytes) return cut;
  const kept = Buffer.byteLength(cut.text);
  return {
    text: `${cut.text}\n[output truncated: ${kept} of ${total} bytes shown]`,
    truncated: true,
    originalBytes: total,
  };
}

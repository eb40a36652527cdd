/** How many times percent-encoding is peeled off one text (`%2525…` nests one level per round). */
export const MAX_DECODE_ROUNDS = 4;
/** Shortest base64 or hex run that is decoded to look inside it (shorter runs hide no key). */
export const MIN_ENCODED_RUN_LENGTH = 16;

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const BASE64_RUN = /[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])/g;
// Decoded bytes count as text only when they are valid UTF-8 without control characters: random bytes
// (a commit hash, a sha256 digest, an image) almost never are, so they are not scanned a second time.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes every `%XX` run once; a run that is not valid UTF-8 decodes byte by byte (Latin-1). */
export function percentDecodeOnce(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(PERCENT_RUN, (run) => {
    const bytes = Buffer.from(run.replaceAll('%', ''), 'hex');
    return decodeText(bytes, true) ?? bytes.toString('latin1');
  });
}

/**
 * The text and each distinct result of peeling percent-encoding off it, up to {@link MAX_DECODE_ROUNDS}
 * times; with `form`, `+` is read as a space first (`application/x-www-form-urlencoded`, query strings).
 */
export function percentDecodings(text: string, form = false): string[] {
  const views = [text];
  let current = form ? text.replaceAll('+', ' ') : text;
  if (current !== text) views.push(current);
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    const next = percentDecodeOnce(current);
    if (next === current) break;
    views.push(next);
    current = next;
  }
  return views;
}

/**
 * Texts hidden in `text` as base64 (standard or URL-safe) or hex runs, decoded, for runs that decode
 * to readable UTF-8 text. Joined with newlines so neighbouring runs stay neighbours.
 */
export function decodedEncodedRuns(text: string): string | undefined {
  const found: string[] = [];
  for (const match of text.matchAll(HEX_RUN)) {
    const decoded = decodeText(Buffer.from(match[0], 'hex'));
    if (decoded !== undefined) found.push(decoded);
  }
  for (const match of text.matchAll(BASE64_RUN)) {
    // `/` is both a base64 digit and a path separator: a run such as `/v1/c2st…` is also read from each
    // segment, or the path in front would shift every byte of the encoded key.
    const candidates = new Set([
      match[0],
      ...match[0].split('/').filter((part) => part.length >= MIN_ENCODED_RUN_LENGTH),
    ]);
    for (const run of candidates) {
      // A run of hex digits only was read as hex above; base64 would give bytes, not text.
      if (/^[0-9A-Fa-f]+$/.test(run) || run.replace(/=+$/, '').length % 4 === 1) continue;
      const encoding = run.includes('-') || run.includes('_') ? 'base64url' : 'base64';
      const decoded = decodeText(Buffer.from(run, encoding));
      if (decoded !== undefined) found.push(decoded);
    }
  }
  return found.length === 0 ? undefined : found.join('\n');
}

/**
 * Every reading of `text` a receiver could make: as written, percent-decoded (repeatedly; with `form`,
 * also with `+` as space), and the base64 and hex runs of the text as written and fully decoded, decoded
 * in turn (then percent-decoded once more). Distinct views only.
 */
export function encodedTextViews(text: string, form = false): string[] {
  const plain = percentDecodings(text);
  const chains = form ? [plain, percentDecodings(text, true)] : [plain];
  const views = new Set<string>(chains.flat());
  // Percent-decoding only changes `%XX` spots, so the runs of the intermediate rounds add nothing new.
  const ends = new Set([text, ...chains.map((chain) => chain.at(-1) ?? text)]);
  for (const view of ends) {
    const runs = decodedEncodedRuns(view);
    if (runs !== undefined) percentDecodings(runs, form).forEach((decoded) => views.add(decoded));
  }
  return [...views];
}

function plausiblyText(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte < 0x20 ? byte !== 0x09 && byte !== 0x0a && byte !== 0x0d : byte === 0x7f) return false;
  }
  return true;
}

function decodeText(bytes: Buffer, allowControls = false): string | undefined {
  if (bytes.length === 0) return undefined;
  // Most candidates are random bytes: refuse them at the first control byte, before the (throwing) decoder.
  if (!allowControls && !plausiblyText(bytes)) return undefined;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
  return !allowControls && CONTROL_CHARACTERS.test(text) ? undefined : text;
}

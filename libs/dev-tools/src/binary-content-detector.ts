/** Bytes inspected to decide whether a file is binary. */
export const BINARY_SAMPLE_BYTES = 8192;

/**
 * A file is treated as binary when its first bytes hold a NUL or are not valid UTF-8 (a sequence
 * cut at the end of the sample is allowed).
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

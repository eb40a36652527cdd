import { createHash } from 'node:crypto';

/** sha256 of bytes, lower-case hex. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

import { createHash, randomBytes } from 'node:crypto';

/** Prefix of every Talon API token, so leaked tokens are easy to recognise (and to scan for). */
export const API_TOKEN_PREFIX = 'talon_';

/** A freshly generated token: shown once; only `hash` is stored. */
export interface GeneratedApiToken {
  id: string;
  token: string;
  hash: string;
}

/** sha256 hex of a token. Tokens carry 256 random bits, so a fast hash is enough to store them. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new random token (32 bytes, base64url) with its id and hash. */
export function generateApiToken(): GeneratedApiToken {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { id: `tok_${randomBytes(8).toString('hex')}`, token, hash: hashApiToken(token) };
}

/** True when `value` has the shape of a token of at least 32 bytes of entropy (any operator-chosen form). */
export function looksLikeApiToken(value: string): boolean {
  return value.length >= 32 && value.length <= 512 && /^[\x21-\x7e]+$/.test(value);
}

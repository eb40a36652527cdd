import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SecretCorruptError } from './errors/secret-corrupt-error.js';
import { SecretKeyMismatchError } from './errors/secret-key-mismatch-error.js';
import { SecretsKeyInvalidError } from './errors/secrets-key-invalid-error.js';

const FORMAT = 'talon1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * Parses the secrets key: exactly 32 bytes written as 64 hex digits or as base64 (standard or URL-safe).
 * A passphrase is refused rather than stretched, so a weak key cannot slip in unnoticed.
 */
export function parseSecretsKey(value: string): Buffer {
  const text = value.trim();
  if (text === '') throw new SecretsKeyInvalidError('it is empty');
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
    throw new SecretsKeyInvalidError(`it decodes to ${bytes.length} bytes, not ${KEY_BYTES}`);
  }
  throw new SecretsKeyInvalidError('it is neither hex nor base64');
}

/**
 * AES-256-GCM for secret values at rest. Each value gets a random 12-byte IV; the secret's name is
 * bound as additional data, so a ciphertext copied onto another name fails to decrypt. The stored form
 * `talon1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url) names the key, so a wrong key is reported as
 * such instead of as corruption. Values are never logged; listings show names only.
 */
export class SecretCipher {
  /** A short, non-secret fingerprint of the key (first 8 hex digits of a hash). */
  readonly keyId: string;
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES)
      throw new SecretsKeyInvalidError(`the key has ${key.length} bytes, not ${KEY_BYTES}`);
    this.key = Buffer.from(key);
    this.keyId = createHash('sha256').update('talon-secrets-key-id').update(key).digest('hex').slice(0, 8);
  }

  /** A cipher over the key in `value` (see {@link parseSecretsKey}). */
  static fromConfig(value: string): SecretCipher {
    return new SecretCipher(parseSecretsKey(value));
  }

  encrypt(name: string, plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(name));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      FORMAT,
      this.keyId,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  /** Throws {@link SecretKeyMismatchError} for another key, {@link SecretCorruptError} for altered data. */
  decrypt(name: string, stored: string): string {
    const parts = stored.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT)
      throw new SecretCorruptError(name, 'the stored value is not in the talon1 format');
    const [, keyId, ivText, tagText, bodyText] = parts as [string, string, string, string, string];
    if (keyId !== this.keyId) throw new SecretKeyMismatchError(name, keyId, this.keyId);
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
      throw new SecretCorruptError(name, 'the IV or tag has the wrong length');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(name));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(Buffer.from(bodyText, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch (error) {
      throw new SecretCorruptError(name, 'authentication failed (altered data or another name)', error);
    }
  }
}

function additionalData(name: string): Buffer {
  return Buffer.from(`talon-secret:${name}`, 'utf8');
}

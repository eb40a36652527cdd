import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseSecretsKey } from './secret-cipher.js';

/** Environment variable holding the secrets key. */
export const SECRETS_KEY_ENV = 'TALON_SECRETS_KEY';

/**
 * For development only: reads the secrets key from `file`, or creates it (32 random bytes, base64,
 * mode 0600) when absent. Production sets {@link SECRETS_KEY_ENV}; the integrator decides which applies.
 * Returns the key and whether it was just generated (worth a warning in the log).
 */
export function loadOrCreateSecretsKeyFile(file: string): { key: Buffer; generated: boolean } {
  try {
    return { key: parseSecretsKey(readFileSync(file, 'utf8')), generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  try {
    // `wx`: if another process created it meanwhile, use theirs rather than overwrite it.
    writeFileSync(file, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
    return { key, generated: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: parseSecretsKey(readFileSync(file, 'utf8')), generated: false };
  }
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { SecretCorruptError } from './errors/secret-corrupt-error.js';
import { SecretKeyMismatchError } from './errors/secret-key-mismatch-error.js';
import { SecretsKeyInvalidError } from './errors/secrets-key-invalid-error.js';
import { parseSecretsKey, SecretCipher } from './secret-cipher.js';
import { loadOrCreateSecretsKeyFile } from './secrets-key-file.js';

const dir = mkdtempSync(join(tmpdir(), 'talon-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SecretCipher', () => {
  const key = randomBytes(32);
  const cipher = new SecretCipher(key);

  it('round-trips values, with a fresh IV each time and no plaintext in the stored form', () => {
    const value = 'sk-live-🔑-0123456789';
    const first = cipher.encrypt('OPENAI_KEY', value);
    const second = cipher.encrypt('OPENAI_KEY', value);
    expect(first).not.toBe(second);
    expect(first).not.toContain('sk-live');
    expect(first.startsWith(`talon1.${cipher.keyId}.`)).toBe(true);
    expect(cipher.decrypt('OPENAI_KEY', first)).toBe(value);
    expect(cipher.decrypt('EMPTY', cipher.encrypt('EMPTY', ''))).toBe('');
    expect(SecretCipher.fromConfig(key.toString('hex')).decrypt('OPENAI_KEY', second)).toBe(value);
  });

  it('reports a wrong key as such', () => {
    const stored = cipher.encrypt('TOKEN', 'v');
    const other = new SecretCipher(randomBytes(32));
    expect(() => other.decrypt('TOKEN', stored)).toThrow(SecretKeyMismatchError);
    expect(() => other.decrypt('TOKEN', stored)).toThrow(/encrypted with key/);
  });

  it('refuses altered data, a ciphertext moved to another name, and junk', () => {
    const stored = cipher.encrypt('TOKEN', 'value');
    const parts = stored.split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => cipher.decrypt('TOKEN', parts.join('.'))).toThrow(SecretCorruptError);
    expect(() => cipher.decrypt('OTHER', stored)).toThrow(/authentication failed/);
    expect(() => cipher.decrypt('TOKEN', 'plain-text')).toThrow(/talon1 format/);
    expect(() => cipher.decrypt('TOKEN', stored.replace(/\.([^.]+)\.([^.]+)$/, '.AA.$2'))).toThrow(
      SecretCorruptError,
    );
  });
});

describe('parseSecretsKey', () => {
  const key = randomBytes(32);
  it('accepts 32 bytes as hex, base64 and base64url', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(` ${key.toString('base64')}\n`)).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
  });
  it.each([
    [''],
    ['correct horse battery staple'],
    [randomBytes(16).toString('base64')],
    [randomBytes(31).toString('hex')],
  ])('refuses %j', (value) => {
    expect(() => parseSecretsKey(value)).toThrow(SecretsKeyInvalidError);
  });
  it('says how to make a key', () => {
    expect(() => parseSecretsKey('short')).toThrow(/openssl rand -base64 32/);
    expect(() => new SecretCipher(Buffer.alloc(8))).toThrow(SecretsKeyInvalidError);
  });
});

describe('loadOrCreateSecretsKeyFile', () => {
  it('creates a 0600 key once and reads the same key afterwards', () => {
    const file = join(dir, 'state', 'secrets.key');
    const created = loadOrCreateSecretsKeyFile(file);
    expect(created.generated).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateSecretsKeyFile(file);
    expect(again).toEqual({ key: created.key, generated: false });
    expect(parseSecretsKey(readFileSync(file, 'utf8'))).toEqual(created.key);
  });
  it('refuses a damaged key file instead of replacing it', () => {
    const file = join(dir, 'bad.key');
    writeFileSync(file, 'not a key');
    expect(() => loadOrCreateSecretsKeyFile(file)).toThrow(SecretsKeyInvalidError);
    expect(readFileSync(file, 'utf8')).toBe('not a key');
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { checksumMatches, migrationChecksum } from './committed-migrations.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('migration checksums', () => {
  it('is the sha256 of the script, counting CRLF as LF', () => {
    expect(migrationChecksum('CREATE TABLE a ();\n')).toBe(sha256('CREATE TABLE a ();\n'));
    expect(migrationChecksum('CREATE TABLE a ();\r\n')).toBe(sha256('CREATE TABLE a ();\n'));
  });

  it('matches a checksum recorded over either line ending, and nothing else', () => {
    const script = 'CREATE TABLE a ();\r\n';
    expect(checksumMatches(script, sha256(script))).toBe(true);
    expect(checksumMatches(script, sha256('CREATE TABLE a ();\n'))).toBe(true);
    expect(checksumMatches(script, sha256('CREATE TABLE b ();\n'))).toBe(false);
    expect(checksumMatches(script, '')).toBe(false);
  });
});

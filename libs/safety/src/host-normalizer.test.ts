import { describe, expect, it } from '@jest/globals';
import { normalizeHost } from './host-normalizer.js';

// The legacy IPv4 spellings that inet_aton and the WHATWG URL parser accept, read through normalizeHost.
describe('legacy IPv4 spellings', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f.0.00.0x1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['10.0x10.0377.1', '10.16.255.1'],
    ['0', '0.0.0.0'],
    ['169.254.43518', '169.254.169.254'],
    ['127.0.0.1.', '127.0.0.1'],
  ])('reads %s as %s', (text, expected) => {
    expect(normalizeHost(text)).toMatchObject({ kind: 'ip', text: expected });
  });

  it.each([
    '256.0.0.1',
    '1.2.3.4.5',
    '4294967296',
    '08.0.0.1',
    'example.com',
    '1..2',
    '',
    '1.2.3.256',
    '127.16777216',
  ])('does not read %s as an IPv4 address', (text) => {
    expect(normalizeHost(text)?.kind).not.toBe('ip');
  });
});

describe('normalizeHost', () => {
  it.each([
    ['EXAMPLE.com.', { kind: 'name', name: 'example.com' }],
    ['%31%32%37.0.0.1', { kind: 'ip', text: '127.0.0.1' }],
    ['[::1]', { kind: 'ip', text: '::1' }],
    ['[fe80::1%25eth0]', { kind: 'ip', text: 'fe80::1' }],
    ['fe80::1%eth0', { kind: 'ip', text: 'fe80::1' }],
    ['[::FFFF:127.0.0.1]', { kind: 'ip', text: '::ffff:7f00:1' }],
    ['０x7f.1', { kind: 'ip', text: '127.0.0.1' }],
    ['①②⑦.0.0.1', { kind: 'ip', text: '127.0.0.1' }],
    ['bücher.example', { kind: 'name', name: 'xn--bcher-kva.example' }],
    ['0x7F.1..', { kind: 'ip', text: '127.0.0.1' }],
  ])('normalises %s', (raw, expected) => {
    expect(normalizeHost(raw)).toMatchObject(expected);
  });

  it.each(['', '.', '[]', 'exa mple.com', '%zz', '1.2.3.999', 'host.0x', 'a.b.999', ':::1'])(
    'rejects %s',
    (raw) => {
      expect(normalizeHost(raw)).toBeUndefined();
    },
  );
});

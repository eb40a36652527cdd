import { describe, expect, it } from '@jest/globals';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { InsecureCredentialError } from './errors/insecure-credential-error.js';
import type { HostLookup } from './host-lookup.js';
import { safeFetch } from './safe-fetch.js';
import { SsrfGuard } from './ssrf-guard.js';

// Names "resolve" through this table only; nothing here is ever connected to.
const ZONE: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'private.test': ['10.0.0.5'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'meta.test': ['169.254.169.254'],
  'nat64.test': ['64:ff9b::a00:1'],
  'v6-loop.test': ['::1'],
  'ula.test': ['fd00::1'],
  'zone.test': ['fe80::1%eth0'],
  'cgnat.test': ['100.64.1.1'],
  'alibaba.test': ['100.100.100.200'],
  'public-then-private.test': ['93.184.216.34', '10.0.0.7'],
  'private-then-public.test': ['10.0.0.7', '93.184.216.34'],
  'private-then-loopback.test': ['10.0.0.7', '127.0.0.1'],
  'private-then-metadata.test': ['10.0.0.7', '169.254.169.254'],
  'two-private.test': ['10.0.0.7', '10.0.0.8'],
};

function tableLookup(calls: string[] = []): HostLookup {
  return async (hostname) => {
    calls.push(hostname);
    const answers = ZONE[hostname];
    if (answers === undefined)
      throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const HOSTILE_URLS: readonly [string, string][] = [
  ['http://127.0.0.1/', 'loopback'],
  ['http://localhost/', 'loopback'],
  ['http://LOCALHOST./', 'loopback'],
  ['http://api.localhost/', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://0x7f.1/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://0x7f.0.00.1/', 'loopback'],
  ['http://017700000001/', 'loopback'],
  ['http://127.0.0.1./', 'loopback'],
  ['http://%31%32%37.0.0.1/', 'loopback'],
  ['http://①②⑦.0.0.1/', 'loopback'],
  ['http://evil@127.0.0.1/', 'loopback'],
  ['http://example.com@127.0.0.1/', 'loopback'],
  ['http://127.0.0.1#@example.com/', 'loopback'],
  ['http://user:pass@169.254.169.254/', 'cloud_metadata'],
  ['http://[::1]/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[::127.0.0.1]/', 'loopback'],
  ['http://[64:ff9b::10.0.0.1]/', 'private'],
  ['http://[2002:7f00:1::]/', 'loopback'],
  ['http://[fe80::1%25eth0]/', 'invalid_url'],
  ['http://[fe80::1]/', 'link_local'],
  ['http://[::]/', 'unspecified'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://10.0.0.1/', 'private'],
  ['http://172.16.5.4/', 'private'],
  ['http://192.168.0.1:8080/', 'private'],
  ['http://169.254.169.254/latest/meta-data/', 'cloud_metadata'],
  ['http://0xa9fea9fe/', 'cloud_metadata'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'cloud_metadata'],
  ['http://METADATA.google.internal./', 'cloud_metadata'],
  ['http://100.100.100.200/', 'cloud_metadata'],
  ['http://[fd00:ec2::254]/', 'cloud_metadata'],
  ['http://100.64.0.1/', 'carrier_grade_nat'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://198.18.0.1/', 'benchmarking'],
  ['http://192.0.2.1/', 'documentation'],
  ['http://[fc00::1]/', 'private'],
  ['http://[ff02::1]/', 'multicast'],
  ['https://127.0.0.1:443/', 'loopback'],
  ['file:///etc/passwd', 'scheme'],
  ['gopher://127.0.0.1:25/', 'scheme'],
  ['ftp://example.com/', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['not a url', 'invalid_url'],
  ['http://private.test/', 'private'],
  ['http://mixed.test/', 'private'],
  ['http://mapped.test/', 'private'],
  ['http://meta.test/', 'cloud_metadata'],
  ['http://nat64.test/', 'private'],
  ['http://v6-loop.test/', 'loopback'],
  ['http://ula.test/', 'private'],
  ['http://zone.test/', 'link_local'],
  ['http://cgnat.test/', 'carrier_grade_nat'],
  ['http://alibaba.test/', 'cloud_metadata'],
];

describe('SsrfGuard with the allowlist off', () => {
  const guard = new SsrfGuard({ lookup: tableLookup() });

  it(`has at least 30 hostile URLs to refuse (${HOSTILE_URLS.length})`, () => {
    expect(HOSTILE_URLS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE_URLS)('refuses %s (%s)', async (url, reason) => {
    const error = await guard.check(url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect((error as SsrfBlockedError).code).toBe('SSRF_BLOCKED');
    expect((error as SsrfBlockedError).details.reason).toBe(reason);
    expect((error as SsrfBlockedError).details.url).not.toContain(':pass@');
  });

  it.each(HOSTILE_URLS)('safeFetch refuses %s before connecting', async (url) => {
    await expect(safeFetch(url, { lookup: tableLookup(), timeoutMs: 2000 })).rejects.toBeInstanceOf(
      SsrfBlockedError,
    );
  });

  it('names the resolved address that was refused', async () => {
    const error = (await guard
      .check('http://mixed.test/')
      .catch((caught: unknown) => caught)) as SsrfBlockedError;
    expect(error.details).toEqual({ url: 'http://mixed.test/', reason: 'private', address: '10.0.0.1' });
  });

  it('allows a public name and pins its checked address after one lookup', async () => {
    const calls: string[] = [];
    const target = await new SsrfGuard({ lookup: tableLookup(calls) }).check(
      'https://Public.Example./path?q=1',
    );
    expect(target).toMatchObject({
      hostname: 'public.example',
      hostKind: 'name',
      address: '93.184.216.34',
      family: 4,
      port: 443,
    });
    expect(calls).toEqual(['public.example']);
  });

  it('looks nothing up for IP literals or names refused by name', async () => {
    const calls: string[] = [];
    const quiet = new SsrfGuard({ lookup: tableLookup(calls) });
    await expect(quiet.check('http://0x7f.1/')).rejects.toBeInstanceOf(SsrfBlockedError);
    await expect(quiet.check('http://metadata.google.internal/')).rejects.toBeInstanceOf(SsrfBlockedError);
    expect(calls).toEqual([]);
  });

  it('reports an unresolvable name as a tool failure, not a block', async () => {
    await expect(guard.check('http://nowhere.test/')).rejects.toMatchObject({ code: 'TOOL_FAILED' });
  });
});

describe('SsrfGuard with an allowlist', () => {
  it('allows only the listed range and port', async () => {
    const guard = new SsrfGuard({
      allowlist: [{ cidr: '127.0.0.1/32', ports: [8080] }, '10.0.0.0/8'],
      lookup: tableLookup(),
    });
    await expect(guard.check('http://127.0.0.1:8080/')).resolves.toMatchObject({
      address: '127.0.0.1',
      port: 8080,
    });
    await expect(guard.check('http://[::ffff:127.0.0.1]:8080/')).resolves.toMatchObject({
      address: '::ffff:7f00:1',
    });
    await expect(guard.check('http://127.0.0.1:8081/')).rejects.toBeInstanceOf(SsrfBlockedError);
    await expect(guard.check('http://127.0.0.2:8080/')).rejects.toBeInstanceOf(SsrfBlockedError);
    await expect(guard.check('http://[::1]:8080/')).rejects.toBeInstanceOf(SsrfBlockedError);
    await expect(guard.check('http://private.test/')).resolves.toMatchObject({ address: '10.0.0.5' });
    await expect(guard.check('http://192.168.0.1/')).rejects.toBeInstanceOf(SsrfBlockedError);
  });

  it('never allows cloud metadata, even inside an allowed range', async () => {
    const guard = new SsrfGuard({ allowlist: ['169.254.0.0/16', '100.64.0.0/10'] });
    await expect(guard.check('http://169.254.10.10/')).resolves.toBeDefined();
    await expect(guard.check('http://169.254.169.254/')).rejects.toMatchObject({
      details: { reason: 'cloud_metadata' },
    });
    await expect(guard.check('http://100.100.100.200/')).rejects.toMatchObject({
      details: { reason: 'cloud_metadata' },
    });
  });

  it('rejects a malformed allowlist entry with a readable message', () => {
    expect(() => new SsrfGuard({ allowlist: ['10.0.0.0/99'] })).toThrow(/not a CIDR range/);
    expect(() => new SsrfGuard({ allowlist: [{ cidr: '127.0.0.1', ports: [0] }] })).toThrow(/port outside/);
  });

  it('still refuses credentials in the URL of an allowed host', async () => {
    const guard = new SsrfGuard({ allowlist: ['127.0.0.0/8'] });
    await expect(guard.check('http://user:secret@127.0.0.1/')).rejects.toMatchObject({
      details: { reason: 'credentials_in_url', url: 'http://127.0.0.1/' },
    });
  });
});

describe('SsrfGuard with multi-address answers', () => {
  const guard = new SsrfGuard({ allowlist: ['10.0.0.0/8'], lookup: tableLookup() });

  it('calls the pinned address allowlisted only when that one address is', async () => {
    await expect(guard.check('http://public-then-private.test/')).resolves.toMatchObject({
      address: '93.184.216.34',
      allowlisted: false,
    });
    await expect(guard.check('http://private-then-public.test/')).resolves.toMatchObject({
      address: '10.0.0.7',
      allowlisted: true,
    });
    await expect(guard.check('http://two-private.test/')).resolves.toMatchObject({ allowlisted: true });
  });

  it.each([
    ['http://private-then-loopback.test/', 'loopback', '127.0.0.1'],
    ['http://private-then-metadata.test/', 'cloud_metadata', '169.254.169.254'],
  ])('refuses %s: one allowlisted answer does not carry the others', async (url, reason, address) => {
    await expect(guard.check(url)).rejects.toMatchObject({ details: { reason, address } });
  });

  it('never sends a credential over plain http to a public address next to an allowlisted one', async () => {
    const grant = {
      secretName: 'api',
      value: 'granted-secret-value-123',
      hostPatterns: ['public-then-private.test'],
      location: { kind: 'bearer' as const },
    };
    await expect(
      safeFetch('http://public-then-private.test/', {
        allowlist: ['10.0.0.0/8'],
        lookup: tableLookup(),
        credentials: [grant],
        timeoutMs: 2000,
      }),
    ).rejects.toBeInstanceOf(InsecureCredentialError);
  });
});

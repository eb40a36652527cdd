import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretLeakError } from './errors/secret-leak-error.js';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { createGuardedFetch } from './guarded-fetch.js';
import type { HostLookup } from './host-lookup.js';

let server: http.Server;
let port: number;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/redirect') {
        response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      } else if (url.pathname === '/events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('event: endpoint\ndata: /messages\n\n');
        // The stream stays open: the caller must get the first event before the response ends.
        setTimeout(() => response.end('data: bye\n\n'), 1500).unref();
      } else {
        response.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'yes' });
        response.end(
          JSON.stringify({ method: request.method, body, authorization: request.headers.authorization }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// Test names resolve through this table only.
const ZONE: Record<string, string[]> = {
  'mcp.test': ['127.0.0.1'],
  'split.test': ['127.0.0.1', '10.0.0.9'],
  'meta.test': ['169.254.169.254'],
};
const lookup: HostLookup = async (hostname) =>
  (ZONE[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

const allowed = () => createGuardedFetch({ allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }], lookup });

describe('createGuardedFetch', () => {
  it.each([
    ['loopback', () => `http://127.0.0.1:${port}/`],
    ['a name that resolves to loopback', () => `http://mcp.test:${port}/`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a name that resolves to metadata', () => 'http://meta.test/'],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/`],
  ])('refuses %s without an allowlist, before connecting', async (_name, url) => {
    const before = seen.length;
    await expect(createGuardedFetch({ lookup })(url())).rejects.toBeInstanceOf(SsrfBlockedError);
    expect(seen.length).toBe(before);
  });

  it('reaches an allowlisted server and returns a WHATWG Response', async () => {
    const response = await allowed()(`http://mcp.test:${port}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(response.url).toBe(`http://mcp.test:${port}/json`);
    expect(await response.json()).toMatchObject({
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(seen.at(-1)?.headers.host).toBe(`mcp.test:${port}`);
  });

  it('refuses a name with one allowlisted and one private address', async () => {
    await expect(allowed()(`http://split.test:${port}/`)).rejects.toMatchObject({
      details: { reason: 'private', address: '10.0.0.9' },
    });
  });

  it('streams the body: the first event arrives while the response is still open', async () => {
    const started = Date.now();
    const response = await allowed()(`http://127.0.0.1:${port}/events`, {
      headers: { accept: 'text/event-stream' },
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: endpoint');
    expect(Date.now() - started).toBeLessThan(1400);
    await reader.cancel();
  });

  it('checks every redirect hop again and drops credentials that leave the origin', async () => {
    const fetch = allowed();
    await expect(
      fetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`),
    ).rejects.toMatchObject({ details: { reason: 'cloud_metadata' } });
    const followed = await fetch(
      `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://mcp.test:${port}/landed`)}`,
      { headers: { authorization: 'Bearer abc' } },
    );
    expect(followed.status).toBe(200);
    expect(seen.at(-1)?.url).toBe('/landed');
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    const manual = await fetch(`http://127.0.0.1:${port}/redirect?to=/x`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/x');
  });

  it('scans what leaves: a key in the body is refused, the expected credential is not', async () => {
    const token = 'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D';
    const fetch = createGuardedFetch({
      allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }],
      lookup,
      egress: { expectedValues: () => [token] },
    });
    const before = seen.length;
    await expect(
      fetch(`http://127.0.0.1:${port}/json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { arguments: { note: encodeURIComponent('AKIAIOSFODNN7EXAMPLE') } } }),
      }),
    ).rejects.toBeInstanceOf(SecretLeakError);
    expect(seen.length).toBe(before);
    const refresh = await fetch(`http://127.0.0.1:${port}/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }),
    });
    expect(refresh.status).toBe(200);
    expect(seen.at(-1)?.body).toContain('grant_type=refresh_token');
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import type { HostLookup } from './host-lookup.js';
import { safeFetch } from './safe-fetch.js';

let directory: string;
let server: https.Server;
let port: number;
let certificate: string;
const serverNames: (string | false)[] = [];

beforeAll(async () => {
  // A real self-signed certificate for `secure.test` only, made by openssl in a temp dir.
  directory = mkdtempSync(join(tmpdir(), 'talon-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      join(directory, 'key.pem'),
      '-out',
      join(directory, 'cert.pem'),
      '-subj',
      '/CN=secure.test',
      '-addext',
      'subjectAltName=DNS:secure.test',
    ],
    { stdio: 'ignore' },
  );
  certificate = readFileSync(join(directory, 'cert.pem'), 'utf8');
  server = https.createServer(
    { key: readFileSync(join(directory, 'key.pem')), cert: certificate },
    (request, response) => {
      serverNames.push((request.socket as TLSSocket).servername || false);
      response.end(`host=${request.headers.host}`);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];

describe('safeFetch over TLS to a pinned address', () => {
  it('connects to the checked address while sending SNI and Host for the name, and verifies the certificate against the name', async () => {
    const response = await safeFetch(`https://secure.test:${port}/`, {
      allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }],
      lookup,
      ca: certificate,
    });
    expect(response.body.toString()).toBe(`host=secure.test:${port}`);
    expect(serverNames.at(-1)).toBe('secure.test');
    expect(response.address).toBe('127.0.0.1');
  });

  it('fails certificate verification for another name pinned to the same address', async () => {
    const error = await safeFetch(`https://other.test:${port}/`, {
      allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }],
      lookup,
      ca: certificate,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TOOL_FAILED', details: { reason: 'ERR_TLS_CERT_ALTNAME_INVALID' } });
  });

  it('refuses the TLS server with the allowlist off', async () => {
    await expect(
      safeFetch(`https://secure.test:${port}/`, { lookup, ca: certificate }),
    ).rejects.toBeInstanceOf(SsrfBlockedError);
  });
});

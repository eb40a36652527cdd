import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchTimeoutError } from './errors/fetch-timeout-error.js';
import { InsecureCredentialError } from './errors/insecure-credential-error.js';
import { ResponseTooLargeError } from './errors/response-too-large-error.js';
import { SecretLeakError } from './errors/secret-leak-error.js';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { TooManyRedirectsError } from './errors/too-many-redirects-error.js';
import type { HostLookup } from './host-lookup.js';
import { safeFetch } from './safe-fetch.js';
import { SsrfGuard } from './ssrf-guard.js';

interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback server that records what reached it and answers by path. */
async function startServer(): Promise<{ port: number; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/redirect') {
        response
          .writeHead(Number(url.searchParams.get('status') ?? 302), {
            location: url.searchParams.get('to') ?? '/',
          })
          .end();
      } else if (url.pathname === '/loop') {
        response.writeHead(302, { location: '/loop' }).end();
      } else if (url.pathname === '/big') {
        const chunk = Buffer.alloc(64 * 1024, 97);
        if (url.searchParams.has('declared')) response.setHeader('content-length', String(chunk.length * 64));
        let sent = 0;
        const pump = () => {
          while (sent < 64 && !response.destroyed) {
            sent += 1;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        pump();
      } else if (url.pathname === '/slow') {
        setTimeout(() => response.end('late'), 5000).unref();
      } else {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ method: request.method, url: request.url, host: request.headers.host, body }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let main: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;
let allowMain: { cidr: string; ports: number[] }[];

// Test names resolve to loopback only; system DNS never sees them (and could not resolve them).
function loopbackLookup(calls: string[] = [], answers: string[] = []): HostLookup {
  return async (hostname) => {
    calls.push(hostname);
    const address = answers.shift() ?? '127.0.0.1';
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

beforeAll(async () => {
  main = await startServer();
  other = await startServer();
  allowMain = [{ cidr: '127.0.0.1/32', ports: [main.port] }];
});

afterAll(async () => {
  await main.close();
  await other.close();
});

describe('safeFetch against a loopback server', () => {
  it('reaches an allowlisted loopback server and returns status, headers and body', async () => {
    const response = await safeFetch(`http://127.0.0.1:${main.port}/hello`, { allowlist: allowMain });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: 'GET', url: '/hello' });
    expect(response.address).toBe('127.0.0.1');
  });

  it('refuses the same server with the allowlist off, without connecting', async () => {
    const before = main.seen.length;
    await expect(safeFetch(`http://127.0.0.1:${main.port}/hello`)).rejects.toBeInstanceOf(SsrfBlockedError);
    expect(main.seen.length).toBe(before);
  });

  it('sends method, headers and body', async () => {
    const response = await safeFetch(`http://127.0.0.1:${main.port}/echo`, {
      allowlist: allowMain,
      method: 'post',
      headers: { 'Content-Type': 'text/plain', 'X-Trace': 'abc' },
      body: 'payload',
    });
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: 'POST', body: 'payload' });
    expect(main.seen.at(-1)?.headers['x-trace']).toBe('abc');
  });

  it.each([
    ['another loopback port', () => `http://127.0.0.1:${other.port}/`],
    ['IPv6 loopback', () => `http://[::1]:${main.port}/`],
    ['localhost', () => `http://localhost:${other.port}/`],
    ['hex loopback', () => `http://0x7f.1:${other.port}/`],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${other.port}/`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a file URL', () => 'file:///etc/passwd'],
  ])('refuses a redirect to %s and never reaches it', async (_name, target) => {
    const otherBefore = other.seen.length;
    const error = await safeFetch(
      `http://127.0.0.1:${main.port}/redirect?to=${encodeURIComponent(target())}`,
      { allowlist: allowMain },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect(other.seen.length).toBe(otherBefore);
  });

  it('follows an allowed redirect and reports the chain', async () => {
    const response = await safeFetch(`http://127.0.0.1:${main.port}/redirect?to=/final`, {
      allowlist: allowMain,
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`http://127.0.0.1:${main.port}/final`);
    expect(response.redirects).toEqual([`http://127.0.0.1:${main.port}/redirect?to=/final`]);
  });

  it('turns a POST into a GET without body on 303, and keeps both on 307', async () => {
    const see = await safeFetch(`http://127.0.0.1:${main.port}/redirect?status=303&to=/after`, {
      allowlist: allowMain,
      method: 'POST',
      body: 'x',
    });
    expect(JSON.parse(see.body.toString())).toMatchObject({ method: 'GET', body: '' });
    const temporary = await safeFetch(`http://127.0.0.1:${main.port}/redirect?status=307&to=/after`, {
      allowlist: allowMain,
      method: 'POST',
      body: 'x',
    });
    expect(JSON.parse(temporary.body.toString())).toMatchObject({ method: 'POST', body: 'x' });
  });

  it('stops after the redirect cap', async () => {
    const before = main.seen.length;
    const error = await safeFetch(`http://127.0.0.1:${main.port}/loop`, {
      allowlist: allowMain,
      maxRedirects: 3,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyRedirectsError);
    expect((error as TooManyRedirectsError).details).toMatchObject({ maxRedirects: 3 });
    expect(main.seen.length - before).toBe(4);
  });

  it('returns the redirect itself when redirects are off', async () => {
    const response = await safeFetch(`http://127.0.0.1:${main.port}/loop`, {
      allowlist: allowMain,
      maxRedirects: 0,
    });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/loop');
  });

  it('aborts a streamed body past the byte cap', async () => {
    const error = await safeFetch(`http://127.0.0.1:${main.port}/big`, {
      allowlist: allowMain,
      maxResponseBytes: 1024 * 1024,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a declared oversize body before reading it', async () => {
    await expect(
      safeFetch(`http://127.0.0.1:${main.port}/big?declared=1`, {
        allowlist: allowMain,
        maxResponseBytes: 1000,
      }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('reads a body up to the cap', async () => {
    const response = await safeFetch(`http://127.0.0.1:${main.port}/big`, {
      allowlist: allowMain,
      maxResponseBytes: 4 * 1024 * 1024,
    });
    expect(response.body.length).toBe(64 * 64 * 1024);
  });

  it('gives a timeout error when the server is too slow', async () => {
    const started = Date.now();
    const error = await safeFetch(`http://127.0.0.1:${main.port}/slow`, {
      allowlist: allowMain,
      timeoutMs: 200,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FetchTimeoutError);
    expect((error as FetchTimeoutError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("passes the caller's abort through", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller left')), 100);
    await expect(
      safeFetch(`http://127.0.0.1:${main.port}/slow`, { allowlist: allowMain, signal: controller.signal }),
    ).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
  });
});

describe('safeFetch pins the checked address', () => {
  it('looks a name up once per hop, connects to that address and keeps the Host header', async () => {
    const calls: string[] = [];
    const response = await safeFetch(`http://public.test:${main.port}/pinned`, {
      allowlist: allowMain,
      lookup: loopbackLookup(calls),
    });
    expect(calls).toEqual(['public.test']);
    expect(JSON.parse(response.body.toString())).toMatchObject({ host: `public.test:${main.port}` });
  });

  it('re-checks the next hop: a second answer pointing at a private address is refused', async () => {
    const calls: string[] = [];
    const error = await safeFetch(
      `http://public.test:${main.port}/redirect?to=${encodeURIComponent(`http://public.test:${main.port}/again`)}`,
      {
        allowlist: allowMain,
        lookup: loopbackLookup(calls, ['127.0.0.1', '10.0.0.1']),
      },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect((error as SsrfBlockedError).details.address).toBe('10.0.0.1');
    expect(calls).toEqual(['public.test', 'public.test']);
  });

  it('refuses a name whose answer is outside the allowlist', async () => {
    const calls: string[] = [];
    await expect(
      safeFetch(`http://public.test:${main.port}/`, {
        allowlist: allowMain,
        lookup: loopbackLookup(calls, ['10.0.0.1']),
      }),
    ).rejects.toBeInstanceOf(SsrfBlockedError);
    expect(calls).toEqual(['public.test']);
  });
});

describe('safeFetch credential injection', () => {
  const grant = (kind: 'bearer' | 'header' | 'query', name?: string) => ({
    secretName: 'api-token',
    value: 'tok-SECRET-123456',
    hostPatterns: ['api.test'],
    location: name === undefined ? { kind } : { kind, name },
  });

  it('attaches a bearer credential to a matching host and reports it as used', async () => {
    const response = await safeFetch(`http://API.test:${main.port}/with-token`, {
      allowlist: allowMain,
      lookup: loopbackLookup(),
      credentials: [grant('bearer')],
    });
    expect(main.seen.at(-1)?.headers.authorization).toBe('Bearer tok-SECRET-123456');
    expect(response.usedSecrets).toEqual(['tok-SECRET-123456']);
    expect(response.usedSecretNames).toEqual(['api-token']);
  });

  it('does not attach it to a host outside the patterns', async () => {
    const response = await safeFetch(`http://other.test:${main.port}/no-token`, {
      allowlist: allowMain,
      lookup: loopbackLookup(),
      credentials: [grant('bearer')],
    });
    expect(main.seen.at(-1)?.headers.authorization).toBeUndefined();
    expect(response.usedSecrets).toEqual([]);
  });

  it('strips it on a redirect to another host', async () => {
    const to = encodeURIComponent(`http://other.test:${main.port}/landed`);
    await safeFetch(`http://api.test:${main.port}/redirect?to=${to}`, {
      allowlist: allowMain,
      lookup: loopbackLookup(),
      credentials: [grant('header', 'X-Api-Key')],
    });
    const [first, second] = main.seen.slice(-2);
    expect(first.headers['x-api-key']).toBe('tok-SECRET-123456');
    expect(second.url).toBe('/landed');
    expect(second.headers['x-api-key']).toBeUndefined();
    expect(JSON.stringify(second)).not.toContain('tok-SECRET-123456');
  });

  it('removes a query credential that a redirect echoes to another host', async () => {
    const to = encodeURIComponent(`http://other.test:${main.port}/landed?key=tok-SECRET-123456&keep=1`);
    await safeFetch(`http://api.test:${main.port}/redirect?to=${to}`, {
      allowlist: allowMain,
      lookup: loopbackLookup(),
      credentials: [grant('query', 'key')],
      // The redirect target stands for a server that echoes the secret; the caller did not write it.
      egressScan: false,
    });
    const [first, second] = main.seen.slice(-2);
    expect(first.url).toContain('key=tok-SECRET-123456');
    expect(second.url).toBe('/landed?keep=1');
  });

  it.each([
    ['base64 in the path', (secret: string) => `/steal/${Buffer.from(secret).toString('base64url')}`],
    ['hex in the query', (secret: string) => `/steal?x=${Buffer.from(secret).toString('hex')}`],
    ['percent-encoded twice', (secret: string) => `/steal/${encodeURIComponent(encodeURIComponent(secret))}`],
  ])('refuses a redirect that carries the secret to another host as %s', async (_name, place) => {
    const before = main.seen.length;
    const to = encodeURIComponent(`http://other.test:${main.port}${place('tok-SECRET-123456')}`);
    await expect(
      safeFetch(`http://api.test:${main.port}/redirect?to=${to}`, {
        allowlist: allowMain,
        lookup: loopbackLookup(),
        credentials: [grant('bearer')],
        // The redirect target stands for a server that echoes the secret; the caller did not write it.
        egressScan: false,
      }),
    ).rejects.toBeInstanceOf(SecretLeakError);
    expect(main.seen.length - before).toBe(1);
  });

  it('refuses a redirect that carries the secret in the path of another host', async () => {
    const before = main.seen.length;
    const to = encodeURIComponent(`http://other.test:${main.port}/steal/tok-SECRET-123456`);
    await expect(
      safeFetch(`http://api.test:${main.port}/redirect?to=${to}`, {
        allowlist: allowMain,
        lookup: loopbackLookup(),
        credentials: [grant('bearer')],
        // The redirect target stands for a server that echoes the secret; the caller did not write it.
        egressScan: false,
      }),
    ).rejects.toBeInstanceOf(SecretLeakError);
    expect(main.seen.length - before).toBe(1);
  });

  it("drops the caller's own Authorization header when a redirect leaves the origin", async () => {
    const to = encodeURIComponent(`http://other.test:${main.port}/landed`);
    await safeFetch(`http://api.test:${main.port}/redirect?to=${to}`, {
      allowlist: allowMain,
      lookup: loopbackLookup(),
      headers: { Authorization: 'Basic abc' },
    });
    const [first, second] = main.seen.slice(-2);
    expect(first.headers.authorization).toBe('Basic abc');
    expect(second.headers.authorization).toBeUndefined();
  });
});

describe('safeFetch transport failures', () => {
  it('reports a refused connection as a retryable tool failure', async () => {
    const closed = await startServer();
    const closedPort = closed.port;
    await closed.close();
    const error = await safeFetch(`http://127.0.0.1:${closedPort}/`, { allowlist: ['127.0.0.1'] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: 'TOOL_FAILED',
      retryable: true,
      details: { reason: 'ECONNREFUSED' },
    });
  });

  it('keeps the connection on the first answer when the lookup would answer differently later', async () => {
    const calls: string[] = [];
    const response = await safeFetch(`http://public.test:${main.port}/once`, {
      allowlist: allowMain,
      lookup: loopbackLookup(calls, ['127.0.0.1', '10.0.0.1']),
    });
    expect(response.status).toBe(200);
    // One lookup only: `public.test` is unknown to system DNS, so any second resolution would have failed.
    expect(calls).toEqual(['public.test']);
  });
});

describe('safeFetch deadlines and plain-http credentials', () => {
  it('times out while the lookup hangs', async () => {
    const hanging: HostLookup = () => new Promise(() => undefined);
    const started = Date.now();
    await expect(
      safeFetch('http://slow-dns.test/', { lookup: hanging, timeoutMs: 150 }),
    ).rejects.toBeInstanceOf(FetchTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses to send a credential over plain http to an address the operator did not allowlist', async () => {
    // The guard reports the loopback server as an ordinary public address, so a regression could only reach loopback.
    class PublicLookingGuard extends SsrfGuard {
      override async check(url: string | URL) {
        return { ...(await super.check(url)), allowlisted: false };
      }
    }
    const guard = new PublicLookingGuard({ allowlist: allowMain, lookup: loopbackLookup() });
    const grant = {
      secretName: 'api-token',
      value: 'tok-SECRET-123456',
      hostPatterns: ['api.test'],
      location: { kind: 'bearer' as const },
    };
    const before = main.seen.length;
    const error = await safeFetch(`http://api.test:${main.port}/`, { guard, credentials: [grant] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InsecureCredentialError);
    expect((error as InsecureCredentialError).code).toBe('POLICY_DENIED');
    expect((error as InsecureCredentialError).message).not.toContain('tok-SECRET');
    expect(main.seen.length).toBe(before);
    // Without a matching credential the same request goes through.
    await expect(
      safeFetch(`http://other.test:${main.port}/`, { guard, credentials: [grant] }),
    ).resolves.toMatchObject({ status: 200 });
  });
});

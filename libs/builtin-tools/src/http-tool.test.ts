import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolDefinitionSchema } from '@talon/contracts';
import { SecretLeakError, SsrfBlockedError, type HostLookup } from '@talon/safety';
import { ParamValidator, type CredentialGrant, type ToolContext } from '@talon/tool-runtime';
import { Value } from '@sinclair/typebox/value';
import { createHttpTool, type HttpTool } from './http-tool.js';

const SECRET = 'tok-ABC-987654321-secret';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let port: number;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/redirect') {
        response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      } else if (url.pathname === '/encoded') {
        // Echoes the credential encoded: the tool must still keep it out of its output.
        const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            b64: Buffer.from(token).toString('base64'),
            b64url: Buffer.from(token).toString('base64url'),
            hex: Buffer.from(token).toString('hex'),
            form: encodeURIComponent(token),
          }),
        );
      } else if (url.pathname === '/binary') {
        response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
      } else if (url.pathname === '/text') {
        response
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'set-cookie': 'session=abc' })
          .end('plain ünïcode text '.repeat(10));
      } else {
        // Echoes everything it got, credentials included: the tool must keep them out of its output.
        response.writeHead(200, {
          'content-type': 'application/json',
          'x-echo-auth': request.headers.authorization ?? '',
        });
        response.end(
          JSON.stringify({
            method: request.method,
            url: request.url,
            host: request.headers.host,
            headers: request.headers,
            body,
          }),
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

// Every test name resolves to the loopback server; system DNS is never asked.
const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];

function tool(): HttpTool {
  return createHttpTool({ allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }], lookup, timeoutMs: 5000 });
}

function context(grants: CredentialGrant[] = []): ToolContext & { lines: unknown[] } {
  const lines: unknown[] = [];
  return {
    callId: 'call-1',
    signal: new AbortController().signal,
    grants,
    log: (...line) => lines.push(line),
    lines,
  };
}

const bearerGrant: CredentialGrant = {
  secretName: 'svc-token',
  value: SECRET,
  hostPatterns: ['api.test'],
  location: { kind: 'bearer' },
};

describe('http tool', () => {
  it('has a valid definition whose params schema compiles and rejects body with json', () => {
    const definition = tool().definition;
    expect(Value.Check(ToolDefinitionSchema, definition)).toBe(true);
    expect(definition.effects).toEqual(expect.arrayContaining(['network', 'use_secret']));
    const validator = new ParamValidator();
    expect(() =>
      validator.validate('http', definition.parameters, { url: 'http://x/', body: 'a', json: {} }),
    ).toThrow();
    expect(() =>
      validator.validate('http', definition.parameters, { url: 'http://x/', method: 'TRACE' }),
    ).toThrow();
    expect(
      validator.validate('http', definition.parameters, { url: 'http://x/', json: { a: 1 } }),
    ).toBeDefined();
  });

  it('needs approval only for methods that may write', () => {
    expect(tool().approvalFor({ url: 'http://x/' })).toBe('never');
    expect(tool().approvalFor({ url: 'http://x/', method: 'HEAD' })).toBe('never');
    expect(tool().approvalFor({ url: 'http://x/', method: 'DELETE' })).toBe('unless_auto_approved');
  });

  it('returns status, headers and parsed JSON', async () => {
    const output = await tool().execute({ url: `http://127.0.0.1:${port}/json?x=1` }, context());
    expect(output.status).toBe(200);
    expect(output.headers['content-type']).toBe('application/json');
    expect(output.json).toMatchObject({ method: 'GET', url: '/json?x=1' });
    expect(output.body).toBeUndefined();
  });

  it('sends a JSON body with its content type', async () => {
    const output = await tool().execute(
      { url: `http://127.0.0.1:${port}/json`, method: 'POST', json: { hello: 'world' } },
      context(),
    );
    expect(output.json).toMatchObject({
      method: 'POST',
      body: '{"hello":"world"}',
      headers: { 'content-type': 'application/json' },
    });
  });

  it('returns text bodies, omits cookies and truncates past the cap', async () => {
    const small = createHttpTool({ allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }], maxBodyChars: 30 });
    const output = await small.execute({ url: `http://127.0.0.1:${port}/text` }, context());
    expect(output.body).toMatch(/^plain ünïcode text plain ünïco\n\[truncated: \d+ more characters\]$/);
    expect(output.truncated).toBe(true);
    expect(output.headers['set-cookie']).toBeUndefined();
  });

  it('describes binary bodies instead of returning them', async () => {
    const output = await tool().execute({ url: `http://127.0.0.1:${port}/binary` }, context());
    expect(output.body).toBe('[4 bytes of image/png not shown]');
  });

  it('refuses loopback when the allowlist is off', async () => {
    await expect(
      createHttpTool({ lookup }).execute({ url: `http://127.0.0.1:${port}/json` }, context()),
    ).rejects.toBeInstanceOf(SsrfBlockedError);
    await expect(
      createHttpTool({ lookup }).execute({ url: `http://api.test:${port}/json` }, context([bearerGrant])),
    ).rejects.toBeInstanceOf(SsrfBlockedError);
  });

  it('injects a credential into its allowed host only, and the output never contains it', async () => {
    const ctx = context([bearerGrant]);
    const output = await tool().execute({ url: `http://api.test:${port}/json` }, ctx);
    expect(seen.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    const text = JSON.stringify(output);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED:known_secret]');
    expect(output.headers['x-echo-auth']).toBe('Bearer [REDACTED:known_secret]');
    expect(JSON.stringify(ctx.lines)).not.toContain(SECRET);
    expect(JSON.stringify(ctx.lines)).toContain('svc-token');
  });

  it('does not send the credential to a host outside its patterns', async () => {
    await tool().execute({ url: `http://other.test:${port}/json` }, context([bearerGrant]));
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    expect(seen.at(-1)?.headers.host).toBe(`other.test:${port}`);
  });

  it('does not carry the credential across a redirect to another host', async () => {
    const to = encodeURIComponent(`http://other.test:${port}/json?landed=1`);
    const output = await tool().execute(
      { url: `http://api.test:${port}/redirect?to=${to}` },
      context([bearerGrant]),
    );
    const [first, second] = seen.slice(-2);
    expect(first.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(second.url).toBe('/json?landed=1');
    expect(second.headers.authorization).toBeUndefined();
    expect(output.redirects).toHaveLength(1);
    expect(JSON.stringify(output)).not.toContain(SECRET);
  });

  it('injects header and query credentials by wildcard pattern', async () => {
    const grants: CredentialGrant[] = [
      {
        secretName: 'h',
        value: 'header-value-123456',
        hostPatterns: ['*.example.test'],
        location: { kind: 'header', name: 'X-Api-Key' },
      },
      {
        secretName: 'q',
        value: 'query-value-123456',
        hostPatterns: ['*.example.test'],
        location: { kind: 'query', name: 'key' },
      },
    ];
    const output = await tool().execute({ url: `http://api.example.test:${port}/json?a=1` }, context(grants));
    expect(seen.at(-1)?.headers['x-api-key']).toBe('header-value-123456');
    expect(seen.at(-1)?.url).toBe('/json?a=1&key=query-value-123456');
    expect(JSON.stringify(output)).not.toMatch(/header-value-123456|query-value-123456/);
    await tool().execute({ url: `http://example.test:${port}/json` }, context(grants));
    expect(seen.at(-1)?.headers['x-api-key']).toBeUndefined();
  });

  it('keeps the credential out of the output when the server echoes it encoded', async () => {
    const output = await createHttpTool({
      lookup,
      allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }],
    }).execute({ url: `http://api.test:${port}/encoded` }, context([bearerGrant]));
    expect(seen.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    const text = JSON.stringify(output);
    for (const form of [
      SECRET,
      Buffer.from(SECRET).toString('base64'),
      Buffer.from(SECRET).toString('base64url'),
      Buffer.from(SECRET).toString('hex'),
    ])
      expect(text).not.toContain(form);
    expect(output.json).toMatchObject({ b64: expect.stringContaining('[REDACTED') });
  });

  it('refuses a request the model wrote that already carries a secret', async () => {
    const before = seen.length;
    await expect(
      tool().execute(
        { url: `http://other.test:${port}/json`, headers: { authorization: `Bearer ${SECRET}` } },
        context([bearerGrant]),
      ),
    ).rejects.toBeInstanceOf(SecretLeakError);
    await expect(
      tool().execute(
        {
          url: `http://127.0.0.1:${port}/json`,
          method: 'POST',
          body: 'token=ghp_R2d2C3poLuke0Leia1Han2Solo3Chewie4Yo',
        },
        context(),
      ),
    ).rejects.toMatchObject({ code: 'SECRET_LEAK' });
    expect(seen.length).toBe(before);
  });

  it.each([
    [
      'a percent-encoded key in the query',
      { url: `/json?note=${encodeURIComponent('sk-ant-api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3')}` },
    ],
    [
      'a key encoded twice in the path',
      { url: `/json/${encodeURIComponent(encodeURIComponent('AKIAIOSFODNN7EXAMPLE'))}` },
    ],
    [
      'a form body with the key as a field',
      {
        url: '/json',
        method: 'POST' as const,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `note=${encodeURIComponent('xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp')}`,
      },
    ],
    [
      'a base64 key in a JSON body',
      {
        url: '/json',
        method: 'POST' as const,
        json: { blob: Buffer.from('sk_live_4eC39HqLyjWDarjtT1zdp7dc').toString('base64') },
      },
    ],
    [
      'the granted secret hex-encoded in a header',
      { url: '/json', headers: { 'x-trace': Buffer.from(SECRET).toString('hex') } },
    ],
    [
      'the granted secret split by zero-width spaces',
      { url: `/json?x=${encodeURIComponent(SECRET.split('').join('\u200B'))}` },
    ],
  ])('refuses %s before anything is sent', async (_name, request) => {
    const before = seen.length;
    await expect(
      tool().execute({ ...request, url: `http://127.0.0.1:${port}${request.url}` }, context([bearerGrant])),
    ).rejects.toMatchObject({ code: 'SECRET_LEAK' });
    expect(seen.length).toBe(before);
  });
});

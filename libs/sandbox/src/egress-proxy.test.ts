import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SsrfGuard } from '@talon/safety';
import { startHostCanary, type HostCanary } from '@talon/testing';
import { EgressProxy, type EgressDecision } from './egress-proxy.js';

describe('EgressProxy', () => {
  let dir: string;
  let canary: HostCanary;
  let proxy: EgressProxy;
  const decisions: EgressDecision[] = [];
  const socketPath = () => join(dir, 'proxy.sock');

  /** One plain request through the proxy's socket: status and body. */
  const send = (
    url: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    new Promise<{ status: number; body: string }>((resolvePromise, rejectPromise) => {
      const req = request(
        { socketPath: socketPath(), path: url, method: options.method ?? 'GET', headers: options.headers },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', rejectPromise);
      req.end(options.body);
    });

  /** A CONNECT through the proxy: the status line it answered, and what a GET through the tunnel returned. */
  const tunnel = (authority: string) =>
    new Promise<{ status: number; body: string }>((resolvePromise, rejectPromise) => {
      const req = request({ socketPath: socketPath(), method: 'CONNECT', path: authority });
      req.on('connect', (res, socket) => {
        if (res.statusCode !== 200) {
          socket.destroy();
          return resolvePromise({ status: res.statusCode ?? 0, body: '' });
        }
        let body = '';
        socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
        socket.on('end', () => resolvePromise({ status: 200, body }));
        socket.write(`GET /through-tunnel HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`);
      });
      req.on('response', (res) => resolvePromise({ status: res.statusCode ?? 0, body: '' }));
      req.on('error', rejectPromise);
      req.end();
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'talon-proxy-'));
    canary = await startHostCanary();
    proxy = new EgressProxy({
      hosts: [`127.0.0.1:${canary.port}`, 'granted.test'],
      guard: new SsrfGuard({
        allowlist: [{ cidr: '127.0.0.1/32', ports: [canary.port] }],
        lookup: async (name) => (name === 'granted.test' ? [{ address: '169.254.169.254', family: 4 }] : []),
      }),
      onDecision: (decision) => decisions.push(decision),
    });
    await proxy.listen(socketPath());
  });

  afterAll(async () => {
    await proxy.close();
    await canary.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('forwards a plain request to a granted host that passes the SSRF guard', async () => {
    const reply = await send(`http://127.0.0.1:${canary.port}/ok`, {
      headers: { host: `127.0.0.1:${canary.port}` },
    });
    expect(reply).toEqual({ status: 200, body: 'canary reached\n' });
    expect(canary.hits).toContain('GET /ok');
  });

  it('opens a CONNECT tunnel only after checking the host', async () => {
    const reply = await tunnel(`127.0.0.1:${canary.port}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('canary reached');
    expect(canary.hits).toContain('GET /through-tunnel');
  });

  it('refuses hosts that are not granted, before connecting anywhere', async () => {
    canary.hits.length = 0;
    const other = await send(`http://127.0.0.1:${canary.port + 1}/no`);
    expect(other.status).toBe(403);
    expect(other.body).toContain('not granted');
    expect((await tunnel('example.com:443')).status).toBe(403);
    expect(canary.hits).toEqual([]);
  });

  it('refuses a granted name that resolves to the metadata address (SSRF guard, pinned lookup)', async () => {
    const reply = await send('http://granted.test/latest/meta-data/');
    expect(reply.status).toBe(403);
    expect(reply.body).toMatch(/cloud_metadata|169\.254\.169\.254/);
    expect((await tunnel('granted.test:443')).status).toBe(403);
  });

  it('refuses a request whose URL, headers or body carry a secret (egress leak scan)', async () => {
    canary.hits.length = 0;
    const key = 'sk-proj-T4lonPlantedKey0123456789abcdefghijklmnopqrstuvwxyz';
    const url = `http://127.0.0.1:${canary.port}/leak`;
    expect((await send(`${url}?k=${key}`)).status).toBe(403);
    expect((await send(url, { headers: { 'x-api-key': key } })).status).toBe(403);
    expect((await send(url, { method: 'POST', body: `{"token":"${key}"}` })).status).toBe(403);
    expect(canary.hits).toEqual([]);
  });

  it('refuses requests that are not absolute http:// URLs', async () => {
    expect((await send('/relative')).status).toBe(400);
    expect((await send(`https://127.0.0.1:${canary.port}/`)).status).toBe(403);
    expect(decisions.filter((decision) => !decision.allowed).length).toBeGreaterThan(5);
  });
});

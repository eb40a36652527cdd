import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpManager, parseMcpServerConfig } from '../src/index.js';
import { freeLoopbackPort, startChildServer, type ChildServer } from './support/child-server.js';
import { EVERYTHING_BIN, waitFor } from './support/mcp-test-servers.js';

describe('server-everything over streamable HTTP and SSE', () => {
  let http: ChildServer;
  let sse: ChildServer;
  let manager: McpManager;
  let httpPort: number;

  beforeAll(async () => {
    httpPort = await freeLoopbackPort();
    const ssePort = await freeLoopbackPort();
    http = await startChildServer(
      EVERYTHING_BIN,
      ['streamableHttp'],
      { PORT: String(httpPort) },
      'listening on port',
    );
    sse = await startChildServer(EVERYTHING_BIN, ['sse'], { PORT: String(ssePort) }, 'running on port');
    manager = new McpManager({
      // The servers listen on loopback: allowed explicitly, as an operator's TALON_SSRF_ALLOWLIST would.
      network: { allowlist: ['127.0.0.1/32'] },
      servers: [
        parseMcpServerConfig({
          name: 'remote',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${httpPort}/mcp` },
        }),
        parseMcpServerConfig({
          name: 'legacy',
          transport: { type: 'sse', url: `http://127.0.0.1:${ssePort}/sse` },
        }),
        parseMcpServerConfig({
          name: 'gone',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${await freeLoopbackPort()}/mcp` },
        }),
      ],
    });
  }, 30_000);
  afterAll(async () => {
    await manager.close();
    await Promise.all([http.stop(), sse.stop()]);
  });

  it('lists and calls over streamable HTTP; tools are orchestrator-domain', async () => {
    const output = await manager.call('remote.echo', { message: 'over http' });
    expect(output.text).toContain('over http');
    const status = manager.list().find((server) => server.name === 'remote');
    expect(status).toMatchObject({ state: 'running', transport: 'streamable-http' });
    expect(status?.pid).toBeUndefined();
    expect(status?.toolCount).toBeGreaterThan(5);
    expect(manager.tools().find((tool) => tool.definition.name === 'remote_echo')?.definition.domain).toBe(
      'orchestrator',
    );
    expect((await manager.call('remote.get-sum', { a: 20, b: 22 })).text).toContain('42');
  });

  it.each([
    ['a key in the arguments', { message: 'deploy with AKIAIOSFODNN7EXAMPLE' }],
    ['a percent-encoded key', { message: encodeURIComponent('sk-ant-api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6') }],
    ['a base64 key', { message: Buffer.from('ghp_R2d2C3poLuke0Leia1Han2Solo3Chewie4Yo').toString('base64') }],
  ])('refuses to send %s to a remote server (egress leak scan), and stays usable', async (_name, args) => {
    await expect(manager.call('remote.echo', args)).rejects.toMatchObject({ code: 'SECRET_LEAK' });
    await expect(manager.call('legacy.echo', args)).rejects.toMatchObject({ code: 'SECRET_LEAK' });
    expect((await manager.call('remote.echo', { message: 'still here' })).text).toContain('still here');
  });

  it('lists and calls over the older HTTP+SSE transport', async () => {
    const output = await manager.call('legacy.echo', { message: 'over sse' });
    expect(output.text).toContain('over sse');
    expect(manager.list().find((server) => server.name === 'legacy')).toMatchObject({
      state: 'running',
      transport: 'sse',
    });
  });

  it('marks a remote server down when it stops answering pings and reconnects when it is back', async () => {
    const port = await freeLoopbackPort();
    let server = await startChildServer(
      EVERYTHING_BIN,
      ['streamableHttp'],
      { PORT: String(port) },
      'listening on port',
    );
    const flaky = new McpManager({
      network: { allowlist: ['127.0.0.1/32'] },
      servers: [
        parseMcpServerConfig({
          name: 'flaky',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${port}/mcp` },
          health_interval_ms: 150,
          restart: { initial_delay_ms: 100, max_delay_ms: 400, max_restarts: 50 },
        }),
      ],
    });
    try {
      await flaky.start('flaky');
      await server.stop();
      await waitFor(() => flaky.list()[0]?.state === 'down', 10_000, 'marked down');
      expect(flaky.list()[0]?.lastError).toContain('health check failed');
      server = await startChildServer(
        EVERYTHING_BIN,
        ['streamableHttp'],
        { PORT: String(port) },
        'listening on port',
      );
      await waitFor(() => flaky.list()[0]?.state === 'running', 15_000, 'reconnected');
      expect(flaky.list()[0]?.restarts).toBeGreaterThanOrEqual(1);
      expect((await flaky.call('flaky.echo', { message: 'back' })).text).toContain('back');
    } finally {
      await flaky.close();
      await server.stop();
    }
  }, 40_000);

  it('reports an unreachable remote server as UNAVAILABLE and marks it down', async () => {
    await expect(manager.start('gone')).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expect(manager.list().find((server) => server.name === 'gone')).toMatchObject({
      state: 'down',
      lastError: expect.stringContaining('could not be started'),
    });
  });
});

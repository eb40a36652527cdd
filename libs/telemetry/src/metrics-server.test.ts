import { afterAll, describe, expect, it } from '@jest/globals';
import { createTalonMetrics } from './talon-metrics.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';

describe('startMetricsServer', () => {
  const servers: MetricsServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('serves the registry on GET /metrics and nothing else', async () => {
    const metrics = createTalonMetrics('unit');
    metrics.toolExecutions.inc({ tool: 'echo', code: 'ok' });
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1' }, metrics.registry);
    servers.push(server);
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('# HELP talon_tool_executions_total');
    expect(text).toContain('talon_tool_executions_total{tool="echo",code="ok",service="unit"} 1');
    expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('asks for the token when one is configured', async () => {
    const metrics = createTalonMetrics('unit');
    const token = 'scrape-token-0123456789';
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', token }, metrics.registry);
    servers.push(server);
    const url = `http://127.0.0.1:${server.port}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(
      401,
    );
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { inSpan, startTracing, type TracingHandle } from '@talon/telemetry';
import { startOtlpReceiver, waitUntil, type OtlpReceiver } from '@talon/testing';
import { McpManager, parseMcpServerConfig } from '../src/index.js';
import { freeLoopbackPort, startChildServer, type ChildServer } from './support/child-server.js';
import { FIXTURES } from './support/mcp-test-servers.js';

const SPAN_KIND_CLIENT = 3;

describe('remote MCP requests carry the trace context of the call', () => {
  let server: ChildServer;
  let manager: McpManager;
  let receiver: OtlpReceiver;
  let tracing: TracingHandle | undefined;

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    [server, receiver] = await Promise.all([
      startChildServer(join(FIXTURES, 'trace-recording-server.mjs'), [String(port)], {}, 'listening on port'),
      startOtlpReceiver(),
    ]);
    manager = new McpManager({
      network: { allowlist: ['127.0.0.1/32'] },
      servers: [
        parseMcpServerConfig({
          name: 'http',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${port}/mcp` },
        }),
        parseMcpServerConfig({
          name: 'legacy',
          transport: { type: 'sse', url: `http://127.0.0.1:${port}/sse` },
        }),
      ],
    });
  }, 30_000);

  afterAll(async () => {
    await tracing?.shutdown();
    await manager?.close();
    await Promise.all([server?.stop(), receiver?.close()]);
  });

  it('sends no traceparent while tracing is off', async () => {
    expect((await manager.call('http.traceparent', {})).text).toBe('none');
    expect((await manager.call('legacy.traceparent', {})).text).toBe('none');
  });

  it.each([['http'], ['legacy']])(
    'names the MCP client span as the parent of the request (%s transport)',
    async (name) => {
      tracing ??= await startTracing(
        {
          tracesUrl: `${receiver.url}/v1/traces`,
          serviceName: 'talon-mcp-test',
          sampler: 'always_on',
          samplerRatio: 1,
          headers: {},
          scheduleDelayMs: 50,
        },
        { instanceId: 'mcp-test', warn: () => undefined },
      );
      let caller = { traceId: '', spanId: '' };
      const text = await inSpan('caller', {}, async (span) => {
        caller = span.spanContext();
        return (await manager.call(`${name}.traceparent`, {})).text;
      });
      const [version, traceId, parentId, flags] = text.split('-');
      expect([version, traceId, flags]).toEqual(['00', caller.traceId, '01']);
      expect(parentId).not.toBe(caller.spanId);
      await tracing!.flush();
      await waitUntil(
        () => receiver.spans.some((span) => span.spanId === parentId),
        10_000,
        'the MCP client span exported',
      );
      const client = receiver.spans.find((span) => span.spanId === parentId)!;
      expect(client).toMatchObject({
        name: 'tools/call traceparent',
        kind: SPAN_KIND_CLIENT,
        traceId: caller.traceId,
        parentSpanId: caller.spanId,
        attributes: { 'talon.mcp.server': name, 'mcp.method.name': 'tools/call' },
      });
    },
  );

  it('a call outside any trace starts one at its client span', async () => {
    expect(tracing).toBeDefined();
    const [, traceId, parentId] = (await manager.call('http.traceparent', {})).text.split('-');
    await tracing!.flush();
    await waitUntil(
      () => receiver.spans.some((span) => span.spanId === parentId),
      10_000,
      'the MCP client span exported',
    );
    const client = receiver.spans.find((span) => span.spanId === parentId)!;
    expect(client).toMatchObject({ name: 'tools/call traceparent', traceId });
    expect(client.parentSpanId).toBeUndefined();
  });
});

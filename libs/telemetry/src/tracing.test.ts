import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { startTracing, type TracingHandle } from './tracing.js';
import { activeSpan, inSpan } from './spans.js';
import {
  extractTraceContext,
  hasActiveTrace,
  injectTraceHeaders,
  recordCarrier,
} from './trace-propagation.js';
import { logTraceFields } from './log-trace-fields.js';
import { isTracingEnabled } from './tracing-switch.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';

describe('with tracing off', () => {
  it('runs work with a no-op span and adds no headers', () => {
    expect(isTracingEnabled()).toBe(false);
    const carrier = recordCarrier({});
    const value = inSpan('x', {}, (span) => {
      span.setAttribute('a', 1);
      expect(hasActiveTrace()).toBe(false);
      expect(injectTraceHeaders(carrier)).toBe(false);
      expect(logTraceFields()).toBeUndefined();
      return 42;
    });
    expect(value).toBe(42);
    expect(carrier.get('traceparent')).toBeUndefined();
    expect(activeSpan()).toBeUndefined();
    expect(extractTraceContext(recordCarrier({ traceparent: `00-${TRACE}-${PARENT}-01` }))).toBe(
      ROOT_CONTEXT,
    );
  });
});

describe('with tracing on', () => {
  let handle: TracingHandle | undefined;
  let collector: Server;
  let exports = 0;
  const warnings: Array<{ message: string; fields: Record<string, unknown> }> = [];

  beforeAll(async () => {
    // A collector that refuses every export: calls must not notice, and the warning is rate-limited. The
    // exporter retries a 503 five times with backoff (8 s a batch); `Retry-After: 0` retries at once.
    collector = createServer((request, response) => {
      exports++;
      request.resume();
      response.writeHead(503, { 'Retry-After': '0' }).end();
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const port = (collector.address() as { port: number }).port;
    handle = await startTracing(
      {
        tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
        serviceName: 'test',
        sampler: 'always_on',
        samplerRatio: 1,
        headers: {},
        scheduleDelayMs: 50,
      },
      { instanceId: 'i-1', warn: (message, fields) => warnings.push({ message, fields }) },
    );
  });

  afterAll(async () => {
    await handle?.shutdown();
    await new Promise((resolve) => collector.close(resolve));
  });

  it('continues a valid traceparent and injects the child span', async () => {
    const parent = extractTraceContext(
      recordCarrier({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'k=v' }),
    );
    const headers: Record<string, string> = {};
    await inSpan('child', { parent }, async (span) => {
      expect(span.spanContext().traceId).toBe(TRACE);
      expect(hasActiveTrace()).toBe(true);
      expect(injectTraceHeaders(recordCarrier(headers))).toBe(true);
      expect(logTraceFields()).toEqual({ trace_id: TRACE, span_id: span.spanContext().spanId });
    });
    expect(headers.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    expect(headers.tracestate).toBe('k=v');
  });

  it.each([
    ['not-a-traceparent'],
    [`00-${'0'.repeat(32)}-${PARENT}-01`],
    [`00-${TRACE}-${PARENT}-01-${'x'.repeat(200)}`],
  ])('ignores the malformed traceparent %s and starts a new trace', async (traceparent) => {
    const parent = extractTraceContext(recordCarrier({ traceparent }));
    expect(trace.getSpanContext(parent)).toBeUndefined();
    await inSpan('fresh', { parent }, async (span) => {
      expect(span.spanContext().traceId).not.toBe(TRACE);
      expect(trace.isSpanContextValid(span.spanContext())).toBe(true);
    });
  });

  it('drops an oversized tracestate but keeps the trace', () => {
    const parent = extractTraceContext(
      recordCarrier({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: `k=${'v'.repeat(4000)}` }),
    );
    expect(trace.getSpanContext(parent)?.traceId).toBe(TRACE);
    const headers: Record<string, string> = {};
    propagation.inject(parent, headers);
    expect(headers.tracestate).toBeUndefined();
  });

  it('marks a failing span with the error code and rethrows', async () => {
    await expect(
      inSpan('fails', {}, async () => {
        throw Object.assign(new Error('secret in message'), { code: 'TOOL_FAILED' });
      }),
    ).rejects.toThrow('secret in message');
  });

  it('survives an unreachable collector with one rate-limited warning', async () => {
    for (let i = 0; i < 20; i++) inSpan(`span-${i}`, {}, () => undefined);
    await handle!.flush();
    for (let i = 0; i < 20; i++) inSpan(`again-${i}`, {}, () => undefined);
    await handle!.flush();
    expect(exports).toBeGreaterThan(0);
    const exportWarnings = warnings.filter((warning) => warning.message.startsWith('trace export failed'));
    expect(exportWarnings).toHaveLength(1);
  });
});

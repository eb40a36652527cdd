import { createServer, type Server } from 'node:http';

/** One span as an OTLP/HTTP JSON export carries it, with its service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

/** A collector in the test process: decodes OTLP/HTTP JSON trace exports and keeps every span and raw body. */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every export body as received, to search for values that must never leave a service. */
  bodies: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.url !== '/v1/traces' || !/json/.test(request.headers['content-type'] ?? '')) {
        response.writeHead(415).end();
        return;
      }
      bodies.push(text);
      const body = JSON.parse(text) as {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
          scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
        }>;
      };
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              service,
              traceId: span.traceId as string,
              spanId: span.spanId as string,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId as string } : {}),
              name: span.name as string,
              kind: span.kind as number,
              attributes: attributesOf(span.attributes as Array<{ key: string; value: OtlpValue }>),
              status: span.status as ReceivedSpan['status'],
              startTimeUnixNano: String(span.startTimeUnixNano),
              endTimeUnixNano: String(span.endTimeUnixNano),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The spans of one trace as an indented tree (`service  name  duration`), roots first. */
export function renderTrace(spans: readonly ReceivedSpan[]): string {
  const byParent = new Map<string | undefined, ReceivedSpan[]>();
  const ids = new Set(spans.map((span) => span.spanId));
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    byParent.set(parent, [...(byParent.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = (byParent.get(parent) ?? []).sort((a, b) =>
      BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1,
    );
    for (const span of children) {
      const ms = Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6;
      lines.push(`${'  '.repeat(depth)}${span.name}  [${span.service}]  ${ms.toFixed(1)} ms`);
      walk(span.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

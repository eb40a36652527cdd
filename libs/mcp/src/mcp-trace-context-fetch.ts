import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { hasActiveTrace, injectTraceHeaders } from '@talon/telemetry';

/**
 * A remote transport's fetch that sends the W3C trace context of the active span (`traceparent`,
 * `tracestate`): a request made inside the `tools/call` client span names that span as the server's
 * parent. Outside a trace (or with tracing off) the request goes out untouched.
 */
export function withTraceContext(fetch: FetchLike): FetchLike {
  return (url, init) => {
    if (!hasActiveTrace()) return fetch(url, init);
    const headers = new Headers(init?.headers);
    injectTraceHeaders({
      get: (name) => headers.get(name) ?? undefined,
      set: (name, value) => headers.set(name, value),
    });
    return fetch(url, { ...init, headers });
  };
}

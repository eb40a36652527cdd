import type { HostHttpClient, HostHttpRequest, HostHttpResponse } from './host-http-client.js';

/**
 * {@link HostHttpClient} over the global `fetch`, with no SSRF guard: for tests against 127.0.0.1 and for
 * embedding behind a guard of your own. Does not follow redirects; caps the response body.
 */
export class FetchHostHttpClient implements HostHttpClient {
  async request(request: HostHttpRequest): Promise<HostHttpResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    const chunks: Uint8Array[] = [];
    let received = 0;
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        received += chunk.byteLength;
        if (received > request.maxResponseBytes) {
          await response.body.cancel().catch(() => undefined);
          throw new Error(`response body exceeds ${request.maxResponseBytes} bytes`);
        }
        chunks.push(chunk);
      }
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: Buffer.concat(chunks).toString('utf8') };
  }
}

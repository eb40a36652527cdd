import { SsrfGuard, safeFetch, type SsrfGuardOptions } from '@talon/safety';
import type { HostHttpClient, HostHttpRequest, HostHttpResponse } from './host-http-client.js';

/**
 * {@link HostHttpClient} through the SSRF guard of `@talon/safety`: the resolved address is checked and pinned,
 * private, loopback and metadata addresses are refused unless the operator allowlists a range, and redirects
 * are not followed (the guest's allowlist was checked against the first URL only). The egress leak scan
 * runs in the host imports, before credentials are injected.
 */
export class SafeFetchHostHttpClient implements HostHttpClient {
  private readonly guard: SsrfGuard;

  constructor(options: SsrfGuardOptions = {}) {
    this.guard = new SsrfGuard(options);
  }

  async request(request: HostHttpRequest): Promise<HostHttpResponse> {
    const response = await safeFetch(request.url, {
      guard: this.guard,
      method: request.method,
      headers: request.headers,
      body: request.body,
      maxRedirects: 0,
      maxResponseBytes: request.maxResponseBytes,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      // The host imports scanned what the guest wrote before injecting credentials; this request now
      // carries those credentials on purpose.
      egressScan: false,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    return { status: response.status, headers, body: response.body.toString('utf8') };
  }
}

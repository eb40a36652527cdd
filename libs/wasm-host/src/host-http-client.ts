/** One outbound request the host makes for a guest, after allowlist checks and credential injection. */
export interface HostHttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The response body is cut off (and the request refused) past this many bytes. */
  maxResponseBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The response handed back (before secret scrubbing). */
export interface HostHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The transport behind the `http-request` host import. Production plugs in the SSRF-guarded fetch from
 * `@talon/safety`; tests use {@link FetchHostHttpClient} against 127.0.0.1. Redirects must not be followed
 * (the allowlist only checked the first URL).
 */
export interface HostHttpClient {
  request(request: HostHttpRequest): Promise<HostHttpResponse>;
}

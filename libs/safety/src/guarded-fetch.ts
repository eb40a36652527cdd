import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { TalonError } from '@talon/errors';
import { displayUrl } from './display-url.js';
import { EgressScanner } from './egress-scanner.js';
import { FetchFailedError } from './errors/fetch-failed-error.js';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { TooManyRedirectsError } from './errors/too-many-redirects-error.js';
import { openPinnedRequest } from './pinned-request.js';
import { DEFAULT_MAX_REDIRECTS } from './safe-fetch.js';
import { SsrfGuard, type SsrfGuardOptions } from './ssrf-guard.js';

/** The `fetch` shape the MCP SDK transports and OAuth helpers accept (`FetchLike`). */
export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What the egress scan of a guarded fetch is told; each is read again for every request. */
export interface GuardedFetchEgress {
  /** Values this destination is meant to receive (its bearer token, OAuth tokens): ignored by the scan. */
  expectedValues?: () => readonly string[] | Promise<readonly string[]>;
  /** Exact values that must not leave in any form. */
  knownSecrets?: () => readonly string[] | Promise<readonly string[]>;
  scanner?: EgressScanner;
}

/** Options of {@link createGuardedFetch}; every field is optional. */
export interface GuardedFetchOptions extends SsrfGuardOptions {
  /** A guard to reuse instead of building one from `allowlist` and `lookup`. */
  guard?: SsrfGuard;
  /** Default {@link DEFAULT_MAX_REDIRECTS}; each hop is checked again. */
  maxRedirects?: number;
  /** CA certificates (PEM) trusted for https instead of Node's bundled roots. */
  ca?: string | readonly string[];
  /** The egress leak scan; on by default (key formats only). `false` turns it off. */
  egress?: GuardedFetchEgress | false;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const defaultScanner = new EgressScanner();

/**
 * A WHATWG `fetch` under the SSRF guard, for code that takes a fetch implementation (the MCP SDK's
 * streamable HTTP and SSE transports, OAuth discovery, registration and token requests): the request
 * passes the egress leak scan, every hop's host is resolved once, checked (all its addresses) and the
 * connection pinned to the checked address, redirects are followed by hand and checked again (or
 * returned as they are with `redirect: 'manual'`), and the response body streams, so a server-sent event
 * stream works. Refusals are typed: SsrfBlockedError, SecretLeakError, TooManyRedirectsError,
 * FetchFailedError (a refused redirect); a transport failure is a `TypeError` as from `fetch`.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const guard = options.guard ?? new SsrfGuard(options);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const egress = options.egress;

  return async (input, init) => {
    const request = new Request(input, init);
    let url = new URL(request.url);
    let method = request.method;
    let headers: Record<string, string> = Object.fromEntries(request.headers);
    let body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const signal = init?.signal ?? undefined;

    if (url.username !== '' || url.password !== '')
      throw new SsrfBlockedError({ url: displayUrl(url), reason: 'credentials_in_url' });
    if (egress !== false) {
      (egress?.scanner ?? defaultScanner).enforce(
        { url, method, headers, body },
        {
          expectedValues: (await egress?.expectedValues?.()) ?? [],
          knownSecrets: (await egress?.knownSecrets?.()) ?? [],
        },
      );
    }

    const redirects: string[] = [];
    for (;;) {
      signal?.throwIfAborted();
      const target = await guard.check(url);
      let response: IncomingMessage;
      try {
        response = await openPinnedRequest(target, { method, headers, body, signal, ca: options.ca });
      } catch (error) {
        if (TalonError.isInstance(error) || signal?.aborted === true) throw error;
        // As WHATWG fetch does: a transport failure is a TypeError (its message says which and why).
        const reason = (error as { code?: unknown }).code;
        const failed = new FetchFailedError(
          displayUrl(url),
          typeof reason === 'string' ? reason : 'transport_error',
          error,
        );
        throw new TypeError(`fetch failed: ${failed.message}`, { cause: error });
      }
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(status) || location === undefined || request.redirect === 'manual')
        return toResponse(response, url, method);
      response.resume();
      if (request.redirect === 'error') throw new FetchFailedError(displayUrl(url), 'redirect_refused');
      redirects.push(displayUrl(url));
      if (redirects.length > maxRedirects)
        throw new TooManyRedirectsError(displayUrl(request.url), maxRedirects, redirects);
      const next = new URL(location, url);
      if (next.origin !== url.origin)
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !ORIGIN_BOUND_HEADERS.includes(name)),
        );
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !name.startsWith('content-')),
        );
      }
      url = next;
    }
  };
}

function toResponse(message: IncomingMessage, url: URL, method: string): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  for (let index = 0; index + 1 < message.rawHeaders.length; index += 2) {
    try {
      headers.append(message.rawHeaders[index], message.rawHeaders[index + 1]);
    } catch {
      // A header value fetch cannot represent is dropped, as fetch itself would refuse it.
    }
  }
  const empty = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  if (empty) message.resume();
  const body = empty ? null : (Readable.toWeb(message) as unknown as ReadableStream<Uint8Array>);
  const response = new Response(body, { status, statusText: message.statusMessage ?? '', headers });
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

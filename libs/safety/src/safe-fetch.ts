import type { CredentialGrant } from './credential-grant.js';
import { hostMatchesPattern, injectCredentials } from './credential-injector.js';
import { TalonError } from '@talon/errors';
import { FetchFailedError } from './errors/fetch-failed-error.js';
import { FetchTimeoutError } from './errors/fetch-timeout-error.js';
import { InsecureCredentialError } from './errors/insecure-credential-error.js';
import { SecretLeakError } from './errors/secret-leak-error.js';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { TooManyRedirectsError } from './errors/too-many-redirects-error.js';
import { sendPinnedRequest } from './pinned-request.js';
import { displayUrl } from './display-url.js';
import { EgressScanner } from './egress-scanner.js';
import { LeakDetector } from './leak-detector.js';
import { SsrfGuard, type SsrfGuardOptions } from './ssrf-guard.js';

/** Default number of redirects followed. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** Default cap on a response body: 5 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Default cap on the whole exchange (every hop and the body). */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** Options of {@link safeFetch}; every field is optional. */
export interface SafeFetchOptions extends SsrfGuardOptions {
  /** Default `GET`. */
  method?: string;
  headers?: Readonly<Record<string, string>>;
  /** A string is sent as UTF-8. */
  body?: string | Uint8Array;
  /** Default {@link DEFAULT_MAX_REDIRECTS}; 0 returns the redirect response itself. */
  maxRedirects?: number;
  /** Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
  /** Default {@link DEFAULT_FETCH_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** The caller's cancellation (e.g. the tool call's signal). */
  signal?: AbortSignal;
  /** Credentials the host may inject; each goes only to hosts matching its patterns. */
  credentials?: readonly CredentialGrant[];
  /** CA certificates (PEM) trusted for https instead of Node's bundled roots (an internal CA, a test CA). */
  ca?: string | readonly string[];
  /** A guard to reuse instead of building one from `allowlist` and `lookup`. */
  guard?: SsrfGuard;
  /**
   * The egress leak scan of the request as the caller wrote it (before credentials are injected): on by
   * default, looking for key formats and for the value of every grant in `credentials` in any encoding.
   * `knownSecrets` adds values that must not leave either (secrets granted to the call but not sent);
   * `false` turns the scan off: only for a caller that scanned the request itself before injecting
   * credentials of its own (the WASM host), or whose every byte Talon wrote.
   */
  egressScan?: { knownSecrets?: readonly string[]; scanner?: EgressScanner } | false;
}

/** A response fetched through {@link safeFetch}. */
export interface SafeFetchResponse {
  /** The final URL (after redirects), without injected credentials. */
  url: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The URLs redirected from, in order. */
  redirects: string[];
  /** The address the final hop connected to. */
  address: string;
  /** Secret values that were sent on any hop: redact these from anything shown to the model. */
  usedSecrets: string[];
  /** Names of the secrets that were sent. */
  usedSecretNames: string[];
}

const defaultEgressScanner = new EgressScanner();
// Exact values only: a redirect target is the server's text, not the caller's; key formats in it are not ours.
const strayValueScanner = new EgressScanner(new LeakDetector([]));

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Request headers that belong to one origin and are dropped when a redirect leaves it.
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * An outbound HTTP request under the SSRF guard: the request as written first passes the egress leak
 * scan ({@link EgressScanner}), each hop is checked and connected to its checked address, redirects are followed by hand and re-checked, credentials go only to matching hosts, and the
 * body and the total time are capped. Throws SsrfBlockedError, ResponseTooLargeError,
 * TooManyRedirectsError, FetchTimeoutError, SecretLeakError or FetchFailedError (transport failures).
 */
export async function safeFetch(
  input: string | URL,
  options: SafeFetchOptions = {},
): Promise<SafeFetchResponse> {
  const guard = options.guard ?? new SsrfGuard(options);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const grants = options.credentials ?? [];
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);

  let url = parseUrl(input);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = typeof options.body === 'string' ? new TextEncoder().encode(options.body) : options.body;
  // Bodies are returned as sent: ask for no compression so the byte cap measures what the caller gets.
  let headers: Record<string, string> = {
    ...lowerCaseKeys(options.headers ?? {}),
    'accept-encoding': 'identity',
  };
  const redirects: string[] = [];
  const usedSecrets = new Set<string>();
  const usedSecretNames = new Set<string>();

  try {
    // Userinfo is refused by the guard anyway; say so before the scan calls it a leaked credential.
    if (url.username !== '' || url.password !== '')
      throw new SsrfBlockedError({ url: displayUrl(url), reason: 'credentials_in_url' });
    if (options.egressScan !== false) {
      const scanner = options.egressScan?.scanner ?? defaultEgressScanner;
      scanner.enforce(
        { url, method, headers, body },
        {
          knownSecrets: [...grants.map((grant) => grant.value), ...(options.egressScan?.knownSecrets ?? [])],
        },
      );
    }
    for (;;) {
      signal.throwIfAborted();
      const target = await untilAborted(guard.check(url), signal);
      // Over plain http a credential is readable on the way; only a range the operator trusts may see it so.
      const sendable = target.url.protocol === 'https:' || target.allowlisted ? grants : [];
      refuseInsecureCredential(target.url, grants, sendable);
      const injected = injectCredentials(target.url, headers, sendable);
      refuseStrayCredential(injected.url, injected.headers, grants, injected.usedSecrets);
      injected.usedSecrets.forEach((value) => usedSecrets.add(value));
      injected.usedSecretNames.forEach((name) => usedSecretNames.add(name));
      const response = await sendPinnedRequest(
        { ...target, url: injected.url },
        { method, headers: injected.headers, body, signal, maxBytes, label: displayUrl(url), ca: options.ca },
      );
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || typeof location !== 'string' || maxRedirects === 0) {
        return {
          url: displayUrl(url),
          status: response.status,
          headers: response.headers,
          body: response.body,
          redirects,
          address: target.address,
          usedSecrets: [...usedSecrets],
          usedSecretNames: [...usedSecretNames],
        };
      }
      redirects.push(displayUrl(url));
      if (redirects.length > maxRedirects)
        throw new TooManyRedirectsError(displayUrl(input), maxRedirects, redirects);
      const next = new URL(location, url);
      if (next.origin !== url.origin) headers = withoutOriginBoundHeaders(headers);
      // 303 always, and 301/302 after a POST, turn into a GET without a body (as browsers do).
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = withoutBodyHeaders(headers);
      }
      url = next;
    }
  } catch (error) {
    if (timeout.aborted) throw new FetchTimeoutError(displayUrl(input), timeoutMs);
    if (TalonError.isInstance(error) || options.signal?.aborted === true) throw error;
    const reason = (error as { code?: unknown }).code;
    throw new FetchFailedError(
      displayUrl(input),
      typeof reason === 'string' ? reason : 'transport_error',
      error,
    );
  }
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (a lookup takes no signal of its own). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function refuseInsecureCredential(
  url: URL,
  grants: readonly CredentialGrant[],
  sendable: readonly CredentialGrant[],
): void {
  if (sendable === grants || grants.length === 0) return;
  const port = url.port === '' ? 80 : Number(url.port);
  const wanted = grants.filter((grant) =>
    grant.hostPatterns.some((pattern) => hostMatchesPattern(url.hostname, port, pattern)),
  );
  if (wanted.length > 0)
    throw new InsecureCredentialError(
      displayUrl(url),
      wanted.map((grant) => grant.secretName),
    );
}

function parseUrl(input: string | URL): URL {
  try {
    return new URL(String(input));
  } catch (error) {
    throw new SsrfBlockedError({ url: String(input).slice(0, 200), reason: 'invalid_url' }, error);
  }
}

function refuseStrayCredential(
  url: URL,
  headers: Record<string, string>,
  grants: readonly CredentialGrant[],
  used: readonly string[],
): void {
  // A redirect can put a secret into the path of a URL on another host, in any encoding; injection only
  // strips plain copies from the query and headers.
  const stray = grants.filter((grant) => grant.value !== '' && !used.includes(grant.value));
  const carried = stray.filter(
    (grant) => strayValueScanner.scan({ url, headers }, { knownSecrets: [grant.value] }).length > 0,
  );
  if (carried.length > 0)
    throw new SecretLeakError(
      `egress to ${url.host}`,
      carried.map((grant) => grant.secretName),
    );
}

function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function withoutOriginBoundHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !ORIGIN_BOUND_HEADERS.has(name)));
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('content-')));
}

import { DEFAULT_MAX_REDIRECTS, SsrfGuard, type AllowlistEntry, type HostLookup } from '@talon/safety';

/** Default cap on a response fetched by a network tool: 2 MiB. */
export const DEFAULT_NETWORK_TOOL_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Default time cap of a network tool call (every hop and the body). */
export const DEFAULT_NETWORK_TOOL_TIMEOUT_MS = 30_000;

/** How the tool-worker configures `http` and `web_fetch`; every field is optional. */
export interface NetworkToolOptions {
  /** Private ranges allowed despite the SSRF guard (operators, tests). Default: none. */
  allowlist?: readonly AllowlistEntry[];
  /** Name resolution; default the system resolver. Tests inject one that never touches DNS. */
  lookup?: HostLookup;
  /** Default {@link DEFAULT_NETWORK_TOOL_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
  /** Default 5 (`DEFAULT_MAX_REDIRECTS`). */
  maxRedirects?: number;
  /** Default {@link DEFAULT_NETWORK_TOOL_TIMEOUT_MS}; also the tool definition's `timeoutMs`. */
  timeoutMs?: number;
}

/** Network tool options after validation, with the guard built once. */
export interface NetworkToolConfig {
  guard: SsrfGuard;
  maxResponseBytes: number;
  maxRedirects: number;
  timeoutMs: number;
}

/** Validates options once at construction; throws a readable error for a bad value. */
export function parseNetworkToolOptions(options: NetworkToolOptions = {}): NetworkToolConfig {
  const positive = (name: string, value: number | undefined, fallback: number, minimum = 1): number => {
    const result = value ?? fallback;
    if (!Number.isInteger(result) || result < minimum)
      throw new Error(`Network tool option ${name} must be an integer >= ${minimum}, got ${String(value)}.`);
    return result;
  };
  return {
    guard: new SsrfGuard({ allowlist: options.allowlist, lookup: options.lookup }),
    maxResponseBytes: positive(
      'maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_NETWORK_TOOL_MAX_RESPONSE_BYTES,
    ),
    maxRedirects: positive('maxRedirects', options.maxRedirects, DEFAULT_MAX_REDIRECTS, 0),
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULT_NETWORK_TOOL_TIMEOUT_MS),
  };
}

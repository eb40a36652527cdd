import type { CredentialGrant } from './credential-grant.js';
import { normalizeHost } from './host-normalizer.js';

/**
 * Whether a host matches a grant's pattern: `api.example.com` matches that host only, `*.example.com`
 * matches any sub-domain (not `example.com` itself); an optional `:port` must match too. Comparison
 * uses normalised hosts, so case, trailing dots and IP spellings cannot sneak past.
 */
export function hostMatchesPattern(host: string, port: number, pattern: string): boolean {
  const portMatch = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(pattern.trim());
  if (portMatch !== null && Number(portMatch[2]) !== port) return false;
  const hostPattern = portMatch !== null ? portMatch[1] : pattern.trim();
  const target = normalizedText(host);
  if (target === undefined) return false;
  if (hostPattern.startsWith('*.')) {
    const suffix = normalizedText(hostPattern.slice(2));
    return suffix !== undefined && target.endsWith(`.${suffix}`) && target.length > suffix.length + 1;
  }
  const exact = normalizedText(hostPattern);
  return exact !== undefined && exact === target;
}

function normalizedText(host: string): string | undefined {
  const normalized = normalizeHost(host);
  if (normalized === undefined) return undefined;
  return normalized.kind === 'ip' ? normalized.text : normalized.name;
}

/** A request after credential injection, and the secret values it now carries. */
export interface InjectedRequest {
  url: URL;
  headers: Record<string, string>;
  usedSecrets: string[];
  usedSecretNames: string[];
}

/**
 * Attaches every grant whose host patterns match the URL's host (bearer → `Authorization`, header →
 * the named header, query → the named query parameter). Grants that do not match are left out, and any
 * copy of their value already in the URL or headers (a redirect that echoes it) is removed.
 */
export function injectCredentials(
  url: URL,
  headers: Readonly<Record<string, string>>,
  grants: readonly CredentialGrant[],
): InjectedRequest {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const next = new URL(url.href);
  const nextHeaders: Record<string, string> = { ...headers };
  const usedSecrets: string[] = [];
  const usedSecretNames: string[] = [];
  for (const grant of grants) {
    if (grant.value === '') continue;
    if (grant.hostPatterns.some((pattern) => hostMatchesPattern(url.hostname, port, pattern))) {
      applyGrant(next, nextHeaders, grant);
      usedSecrets.push(grant.value);
      usedSecretNames.push(grant.secretName);
    } else {
      stripValue(next, nextHeaders, grant.value);
    }
  }
  return { url: next, headers: nextHeaders, usedSecrets, usedSecretNames };
}

function applyGrant(url: URL, headers: Record<string, string>, grant: CredentialGrant): void {
  const { kind, name } = grant.location;
  if (kind === 'bearer') {
    setHeader(headers, name ?? 'authorization', `Bearer ${grant.value}`);
  } else if (kind === 'header') {
    setHeader(headers, name ?? 'authorization', grant.value);
  } else {
    url.searchParams.set(name ?? 'api_key', grant.value);
  }
}

function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  headers[name.toLowerCase()] = value;
}

function stripValue(url: URL, headers: Record<string, string>, value: string): void {
  for (const [key, headerValue] of Object.entries(headers))
    if (headerValue.includes(value)) delete headers[key];
  for (const [key, paramValue] of [...url.searchParams])
    if (paramValue.includes(value)) url.searchParams.delete(key);
}

import type { HttpAllowEntry } from './capabilities.js';

/**
 * Whether `pattern` names `url`'s host. `*.example.com` matches any subdomain (not the apex);
 * a pattern with `:port` must match the port too. Case-insensitive.
 */
export function hostMatches(pattern: string, url: URL): boolean {
  const target = (pattern.includes(':') && !pattern.startsWith('[') ? url.host : url.hostname).toLowerCase();
  const wanted = pattern.toLowerCase();
  if (wanted.startsWith('*.')) return target.endsWith(wanted.slice(1)) && target.length > wanted.length - 1;
  return target === wanted;
}

function pathMatches(prefix: string, pathname: string): boolean {
  if (prefix === '/' || pathname === prefix) return true;
  return pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/**
 * The allowlist entry that grants `method url`, or a reason it is refused. The URL is parsed with WHATWG
 * rules first, so `..` and `%2e%2e` segments are already resolved when the path prefix is compared.
 */
export function findAllowEntry(
  allowlist: readonly HttpAllowEntry[],
  method: string,
  url: URL,
): { entry: HttpAllowEntry } | { reason: string } {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { reason: `scheme ${url.protocol} is not allowed` };
  if (url.username || url.password) return { reason: 'credentials in the URL are not allowed' };
  if (/%2f|%5c/i.test(url.pathname)) return { reason: 'encoded slashes in the path are not allowed' };
  const upper = method.toUpperCase();
  const hostEntries = allowlist.filter((entry) => hostMatches(entry.host, url));
  if (hostEntries.length === 0) return { reason: `host ${url.host} is not in the allowlist` };
  const pathEntries = hostEntries.filter((entry) => pathMatches(entry.path_prefix, url.pathname));
  if (pathEntries.length === 0)
    return { reason: `path ${url.pathname} is outside the allowed prefixes for ${url.host}` };
  const entry = pathEntries.find((candidate) => (candidate.methods as string[]).includes(upper));
  if (!entry) return { reason: `method ${upper} is not allowed for ${url.host}${url.pathname}` };
  return { entry };
}

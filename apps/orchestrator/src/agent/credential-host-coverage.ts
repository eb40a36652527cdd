import { hostMatchesPattern } from '@talon/safety';

function splitPattern(pattern: string): { host: string; port?: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(pattern.trim());
  return match ? { host: match[1]!, port: Number(match[2]) } : { host: pattern.trim() };
}

/** Whether every host (and port) the `declared` pattern matches is also matched by the `stored` pattern. */
export function hostPatternCovers(stored: string, declared: string): boolean {
  const outer = splitPattern(stored);
  const inner = splitPattern(declared);
  if (outer.port !== undefined && outer.port !== inner.port) return false;
  if (inner.host.startsWith('*.')) {
    if (!outer.host.startsWith('*.')) return false;
    const innerSuffix = inner.host.slice(2).toLowerCase();
    const outerSuffix = outer.host.slice(2).toLowerCase();
    return innerSuffix === outerSuffix || innerSuffix.endsWith(`.${outerSuffix}`);
  }
  return hostMatchesPattern(inner.host, inner.port ?? 0, outer.host);
}

/**
 * Whether a stored secret may be granted to a tool that would send it to `declared` hosts: the operator's
 * host patterns for the secret must cover every one of them (no patterns covers nothing).
 */
export function hostPatternsCover(stored: readonly string[], declared: readonly string[]): boolean {
  return declared.every((pattern) => stored.some((outer) => hostPatternCovers(outer, pattern)));
}

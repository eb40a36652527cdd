import type { AllowlistEntry } from '@talon/safety';
import { InvalidConfigError } from './errors/invalid-config-error.js';

/** The environment variable every service reads its SSRF allowlist from. */
export const SSRF_ALLOWLIST_ENV = 'TALON_SSRF_ALLOWLIST';

/**
 * Parses an SSRF allowlist: `cidr` or `cidr@port+port` entries separated by commas
 * (e.g. `10.0.0.0/8,127.0.0.1/32@8080`). Empty or unset means none. A bad entry is a start-up error.
 */
export function parseSsrfAllowlist(raw: string | undefined, variable = SSRF_ALLOWLIST_ENV): AllowlistEntry[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((item) => {
    const [cidr, ports] = item.trim().split('@');
    if (!cidr)
      throw new InvalidConfigError(
        variable,
        raw,
        'CIDR ranges like 10.0.0.0/8 or 127.0.0.1/32@8080, comma-separated',
      );
    if (ports === undefined) return cidr;
    const list = ports.split('+').map(Number);
    if (list.some((port) => !Number.isInteger(port) || port < 1 || port > 65535)) {
      throw new InvalidConfigError(variable, raw, 'ports between 1 and 65535 after @, joined by +');
    }
    return { cidr, ports: list };
  });
}

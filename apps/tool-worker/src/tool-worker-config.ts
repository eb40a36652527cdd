import { InvalidConfigError, parseServiceConfig, readPositiveInt, type ServiceConfig } from '@talon/service-runtime';
import { DEFAULT_TOOL_CONCURRENCY } from '@talon/service-runtime';
import type { AllowlistEntry } from '@talon/safety';

/** Tool-worker settings, read and validated once at start. */
export interface ToolWorkerConfig extends ServiceConfig {
  /** Calls this instance runs at once. Default 16 (env `TOOL_WORKER_CONCURRENCY`). */
  concurrency: number;
  /** Private ranges the SSRF guard lets through (env `TALON_SSRF_ALLOWLIST`, e.g. `10.0.0.0/8,127.0.0.1/32@8080`). Default none. */
  ssrfAllowlist: AllowlistEntry[];
  /** Largest response body `http`/`web_fetch` read. Default 2 MiB (env `TALON_HTTP_MAX_RESPONSE_BYTES`). */
  httpMaxResponseBytes: number;
}

/** Parses `cidr` or `cidr@port+port` entries separated by commas. */
export function parseSsrfAllowlist(raw: string | undefined): AllowlistEntry[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((item) => {
    const [cidr, ports] = item.trim().split('@');
    if (!cidr) throw new InvalidConfigError('TALON_SSRF_ALLOWLIST', raw, 'CIDR ranges like 10.0.0.0/8 or 127.0.0.1/32@8080, comma-separated');
    if (ports === undefined) return cidr;
    const list = ports.split('+').map(Number);
    if (list.some((port) => !Number.isInteger(port) || port < 1 || port > 65535)) {
      throw new InvalidConfigError('TALON_SSRF_ALLOWLIST', raw, 'ports between 1 and 65535 after @, joined by +');
    }
    return { cidr, ports: list };
  });
}

export function parseToolWorkerConfig(env: NodeJS.ProcessEnv = process.env): ToolWorkerConfig {
  return {
    ...parseServiceConfig('tool-worker', env),
    concurrency: readPositiveInt(env, 'TOOL_WORKER_CONCURRENCY', DEFAULT_TOOL_CONCURRENCY),
    ssrfAllowlist: parseSsrfAllowlist(env.TALON_SSRF_ALLOWLIST),
    httpMaxResponseBytes: readPositiveInt(env, 'TALON_HTTP_MAX_RESPONSE_BYTES', 2 * 1024 * 1024),
  };
}

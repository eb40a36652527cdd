import {
  parseServiceConfig,
  parseSsrfAllowlist,
  readPositiveInt,
  type ServiceConfig,
} from '@talon/service-runtime';
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

export function parseToolWorkerConfig(env: NodeJS.ProcessEnv = process.env): ToolWorkerConfig {
  return {
    ...parseServiceConfig('tool-worker', env),
    concurrency: readPositiveInt(env, 'TOOL_WORKER_CONCURRENCY', DEFAULT_TOOL_CONCURRENCY),
    ssrfAllowlist: parseSsrfAllowlist(env.TALON_SSRF_ALLOWLIST),
    httpMaxResponseBytes: readPositiveInt(env, 'TALON_HTTP_MAX_RESPONSE_BYTES', 2 * 1024 * 1024),
  };
}

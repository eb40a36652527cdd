import type { McpRestartPolicy } from './mcp-server-config.js';

/** Delay before restart attempt number `failures` (0 = first): `initialDelayMs·2ⁿ`, capped at `maxDelayMs`. */
export function restartDelayMs(
  policy: Pick<McpRestartPolicy, 'initialDelayMs' | 'maxDelayMs'>,
  failures: number,
): number {
  return Math.min(policy.initialDelayMs * 2 ** Math.min(failures, 30), policy.maxDelayMs);
}

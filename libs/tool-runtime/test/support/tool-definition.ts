import type { ToolDefinition } from '@talon/contracts';

/** A minimal valid tool definition for catalog tests: named after itself, no effects, never asks. */
export function definition(
  name: string,
  source: ToolDefinition['source'] = 'builtin',
  domain: ToolDefinition['domain'] = 'orchestrator',
): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    effects: [],
    approval: 'never',
    timeoutMs: 1000,
    domain,
    source,
    sensitiveParams: [],
    idempotent: true,
  };
}

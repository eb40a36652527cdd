import type { ApprovalRequirement, ToolDefinition, ToolEffect } from '@talon/contracts';

/** Fields every extension tool shares: container domain (runs next to the installer), built-in source. */
export function extensionToolDefinition(fields: {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  effects: ToolEffect[];
  approval: ApprovalRequirement;
  idempotent: boolean;
  timeoutMs?: number;
}): ToolDefinition {
  return {
    name: fields.name,
    description: fields.description,
    parameters: fields.parameters,
    effects: fields.effects,
    approval: fields.approval,
    timeoutMs: fields.timeoutMs ?? 10_000,
    domain: 'container',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: fields.idempotent,
  };
}

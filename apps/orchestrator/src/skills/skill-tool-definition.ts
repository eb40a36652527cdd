import type { ToolDefinition, ToolEffect } from '@talon/contracts';

/** The parts in which the skill_* tools differ; the rest is the same for all four. */
export interface SkillToolShape {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  effects: ToolEffect[];
  approval: ToolDefinition['approval'];
  timeoutMs: number;
}

/** A control-plane tool definition that runs in the orchestrator and proxies to the skill-service. */
export function skillToolDefinition(shape: SkillToolShape): ToolDefinition {
  const readOnly = shape.effects.length === 0;
  return {
    name: shape.name,
    description: shape.description,
    parameters: { type: 'object', additionalProperties: false, ...shape.parameters },
    effects: shape.effects,
    approval: shape.approval,
    timeoutMs: shape.timeoutMs,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: readOnly,
  };
}
